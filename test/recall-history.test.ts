/**
 * The searchable history as modules (issue 24, behaviour 3.11), on the
 * daemon double's guest powers: LAL_HISTORY_MB bounds it (the oldest
 * chunks go, each drop logged with what it held), a chunk of a format this
 * release cannot read (or torn, or not text) is kept aside and counted,
 * secrets never reach a chunk, a long exchange is shown cut around the word
 * found, and the ranking prefers the exchange that holds the rarer words.
 * The agent-level tests are in agent-recall.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import {
  emptyConversation,
  startTurn,
  type Conversation,
  type Turn,
} from '../src/history/conversation.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import {
  CHUNK_BYTES,
  loadHistoryArchive,
  type OpenChunkHolder,
} from '../src/recall/history-archive.js';
import { serializeChunk, utf8Bytes } from '../src/recall/history-chunks.js';
import { makeBm25 } from '../src/recall/rank-bm25.js';
import { queryWords, wordsOf } from '../src/recall/search-words.js';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeManualClock } from './support/manual-clock.js';

const guest = async () => {
  const host = makeMailHost();
  await E(host.host).provideGuest('lal', { agentName: 'profile-for-lal' });
  return {
    powers: host.guest('lal').powers as unknown as PowersRef,
    written: () => host.storedBytes('lal')['agent-history'] ?? 0,
  };
};
const guestPowers = async (): Promise<PowersRef> => (await guest()).powers;

const turnOf = (number: number, text: string, answer = 'noted'): Turn => {
  const turn = startTurn(
    emptyConversation(),
    `#${number} from HOST: ${JSON.stringify(text)}`,
    `Message #${number} from HOST: ${text}`,
  );
  turn.messages.push({
    role: 'assistant',
    content: '',
    toolCalls: [
      {
        id: `c${number}`,
        name: 'reply',
        arguments: JSON.stringify({ messageNumber: number, strings: [answer] }),
      },
    ],
  });
  return turn;
};

const noSecrets = (text: string) => text.replaceAll('sk-very-secret', '[redacted]');

/** An archive on `powers` under a manual clock, its log lines kept. */
const loggedArchive = async (
  powers: PowersRef,
  maxMb: number,
  conversation: Conversation = emptyConversation(),
) => {
  const logs: string[] = [];
  // What the agent's memory holds: the open chunk.
  const memory: OpenChunkHolder = {};
  const archive = await loadHistoryArchive(
    { powers, log: line => logs.push(line), redact: noSecrets, clock: makeManualClock(), maxMb },
    memory,
    conversation,
  );
  return { archive, logs, memory };
};

const sizesIn = async (powers: PowersRef) =>
  (await E(powers).list('agent-history')).map(name => Number(/^c\d+-(\d+)$/.exec(name)?.[1] ?? 0));

describe('the history in the store', () => {
  test('LAL_HISTORY_MB bounds it: the oldest chunks go first, each drop logged with what it held', async () => {
    const powers = await guestPowers();
    const clock = makeManualClock();
    const logs: string[] = [];
    // 1 MB as the bound would take thousands of turns; a fractional bound shows the same.
    const maxMb = 0.05;
    const archive = await loadHistoryArchive(
      { powers, log: line => logs.push(line), redact: noSecrets, clock, maxMb },
      {},
      emptyConversation(),
    );
    const filler = 'words that fill the exchange '.repeat(15);
    for (let number = 1; number <= 300; number += 1) {
      archive.add(
        turnOf(number, number === 2 ? 'the door number is 12B' : `${filler}${number}`),
        undefined,
      );
      clock.advance(60_000);

      await archive.save();
    }
    const closedTotal = (await sizesIn(powers)).reduce((sum, bytes) => sum + bytes, 0);
    expect(closedTotal).toBeLessThanOrEqual(maxMb * 1024 * 1024);
    expect(closedTotal).toBeGreaterThan(maxMb * 1024 * 1024 - 2 * CHUNK_BYTES);
    const drops = logs.filter(line => line.startsWith('history: dropped its oldest chunk'));
    expect(drops.length).toBeGreaterThan(0);
    expect(drops[0]).toMatch(
      /^history: dropped its oldest chunk \(\d+ exchanges, messages #1–#\d+, 2026-11-23 to 2026-11-23; \d+ bytes\) to stay within LAL_HISTORY_MB=0\.05$/,
    );
    // The door number went with the oldest chunk; the latest exchanges are still found.
    expect((await archive.search('door number')).found).toEqual([]);
    const latest = await archive.search('fill 300');
    expect(latest.found[0]?.messageNumber).toBe(300);
    expect(archive.describe()[1]).toMatch(/^\d+ oldest chunks dropped since start$/);
  });

  test('a history of exactly LAL_HISTORY_MB is kept whole; one byte over, the oldest chunk goes', async () => {
    const MB = 1024 * 1024;
    const filler = 'words that fill the exchange '.repeat(15);
    // The same 30 exchanges each time, on a fresh store: one chunk closes, the open one holds the rest.
    const fill = async (maxMb: number) => {
      const powers = await guestPowers();
      const { archive, logs, memory } = await loggedArchive(powers, maxMb);
      for (let number = 1; number <= 30; number += 1) {
        archive.add(turnOf(number, `${filler}${number}`), undefined);
        await archive.save();
      }
      const names = await E(powers).list('agent-history');
      // The open chunk counts toward the bound too, kept in the memory.
      const open = serializeChunk(memory.openChunk?.exchanges ?? []);
      const bytes = (await sizesIn(powers)).reduce((sum, size) => sum + size, 0) + utf8Bytes(open);
      return { logs: logs.filter(line => line.startsWith('history: dropped')), names, bytes };
    };
    const unbounded = await fill(16);
    expect(unbounded.names.length).toBeGreaterThan(0);
    // MB is a power of two: bytes / MB * MB is the very number of bytes.
    const exact = await fill(unbounded.bytes / MB);
    expect(exact.logs).toEqual([]);
    expect(exact.names).toEqual(unbounded.names);
    expect(exact.bytes).toBe(unbounded.bytes);
    const under = await fill((unbounded.bytes - 1) / MB);
    expect(under.logs).toHaveLength(1);
    expect(under.names).toEqual(unbounded.names.filter(name => !name.startsWith('c1-')));
  });

  test('a turn writes nothing to the directory until its chunk is full; a full one is written once, under its closed name', async () => {
    const { powers, written } = await guest();
    const memory: OpenChunkHolder = {};
    const archive = await loadHistoryArchive(
      { powers, log: () => {}, redact: noSecrets, clock: makeManualClock(), maxMb: 16 },
      memory,
      emptyConversation(),
    );
    const perTurn: number[] = [];
    for (let number = 1; number <= 80; number += 1) {
      const before = written();
      archive.add(turnOf(number, `ping ${number} ${'x'.repeat(200)}`), undefined);

      await archive.save();
      perTurn.push(written() - before);
    }
    const closed = await E(powers).list('agent-history');
    expect(closed.length).toBeGreaterThanOrEqual(2);
    expect(closed).not.toContain('open');
    for (const name of closed) {
      const bytes = Number(/-(\d+)$/.exec(name)?.[1]);
      expect(bytes).toBeGreaterThanOrEqual(CHUNK_BYTES);
      expect(bytes).toBeLessThan(CHUNK_BYTES + 1_000);
    }
    // A turn wrote a chunk only when it filled one, that chunk alone; every other turn nothing.
    expect(perTurn.filter(bytes => bytes > 0)).toHaveLength(closed.length);
    expect(Math.max(...perTurn)).toBeLessThan(CHUNK_BYTES + 1_000);
    // The exchanges since are in the open chunk, for the memory to write.
    expect(memory.openChunk?.seq).toBe(closed.length + 1);
    expect(memory.openChunk?.exchanges.length).toBeGreaterThan(0);
    // A save with nothing new writes nothing.
    const before = written();
    await archive.save();
    expect(written()).toBe(before);
  });

  test("each closed chunk's name says the UTF-8 bytes of the text written under it, words past ASCII included", async () => {
    const { powers } = await guest();
    const { archive } = await loggedArchive(powers, 16);
    const words = ['caf\u00e9', 'ping \u2192 pong', 'emoji \ud83d\ude00', 'plain words'];
    for (let number = 1; number <= 60; number += 1) {
      archive.add(
        turnOf(number, `${words[number % words.length]} ${'x'.repeat(number * 7)}`),
        undefined,
      );
      await archive.save();
    }
    const closed = await E(powers).list('agent-history');
    expect(closed.length).toBeGreaterThanOrEqual(2);
    for (const name of closed) {
      const text = await E(powers).lookup(['agent-history', name]);
      expect(name).toBe(
        `c${/^c(\d+)-/.exec(name)?.[1]}-${Buffer.byteLength(String(text), 'utf8')}`,
      );
    }
  });

  test('an open chunk of an unknown format is kept aside under a closed name, and left out of searches', async () => {
    const powers = await guestPowers();
    await E(powers).makeDirectory('agent-history');
    const foreign = JSON.stringify({ version: 9, exchanges: 'kept differently' });
    await E(powers).storeValue(foreign, ['agent-history', 'open']);
    const { archive, logs } = await loggedArchive(
      powers,
      16,
      // A conversation in memory is not made into a chunk: the history already exists.
      { digest: [{ text: '#1 from HOST: "old"', count: 1 }], omitted: 0, turns: [] },
    );
    expect(await E(powers).list('agent-history')).toEqual([`c1-${foreign.length}`]);
    expect(await E(powers).lookup(['agent-history', `c1-${foreign.length}`])).toBe(foreign);
    expect(logs.join('\n')).toMatch(
      /agent-history\/open did not read \(chunk version 9\); kept as c1-/,
    );
    archive.add(turnOf(5, 'the meeting is at 14:30'), undefined);
    await archive.save();
    const result = await archive.search('meeting');
    expect(result).toMatchObject({ searched: 1, unreadable: 1 });
    expect(result.found[0]?.message).toBe('the meeting is at 14:30');
  });

  test('what does not read in the store is left out of searches and counted; dropped, it is named', async () => {
    const powers = await guestPowers();
    await E(powers).makeDirectory('agent-history');
    const chunks: [string, string][] = [
      [
        'c1',
        JSON.stringify({
          version: 1,
          exchanges: [
            {
              n: 7,
              from: 'HOST',
              at: Date.UTC(2026, 10, 20, 9, 30),
              in: 'Message #7 from HOST: the lighthouse key is under the mat',
              out: 'replied "noted"',
            },
            // Records that do not read are left out; the chunk's others are kept.
            { in: 5, out: 'not a record' },
            null,
          ],
        }),
      ],
      ['c2', 'not a string'],
      ['c3', JSON.stringify({ version: 1 })],
      [
        'c4',
        JSON.stringify({ version: 1, exchanges: [{ in: 'plain words', out: 'did nothing' }] }),
      ],
    ];
    for (const [seq, text] of chunks)
      await E(powers).storeValue(seq === 'c2' ? harden({ text }) : text, [
        'agent-history',
        `${seq}-${text.length}`,
      ]);
    // A name that is no chunk's is no part of the history, and is left alone.
    await E(powers).storeValue('a note left here', ['agent-history', 'notes']);
    // Cut off mid-write; its size in the name it is kept under is its UTF-8 size.
    const torn = '{"version":1,"exchanges":[{"in":"café — 🙂';
    await E(powers).storeValue(torn, ['agent-history', 'open']);
    const logs: string[] = [];
    const setup = {
      powers,
      log: (line: string) => logs.push(line),
      redact: noSecrets,
      clock: makeManualClock(),
    };
    const archive = await loadHistoryArchive({ ...setup, maxMb: 16 }, {}, emptyConversation());
    expect(logs).toEqual([
      `agent-history/open did not read (not a JSON chunk); kept as c5-${Buffer.byteLength(torn)}`,
    ]);
    expect(await archive.search('lighthouse key')).toEqual({
      searched: 2,
      unreadable: 3,
      found: [
        {
          messageNumber: 7,
          from: 'HOST',
          date: '2026-11-20T09:30Z',
          message: 'the lighthouse key is under the mat',
          did: 'replied "noted"',
        },
      ],
    });
    // An exchange kept without its number, sender or time is shown without them.
    expect((await archive.search('plain words')).found).toEqual([
      { message: 'plain words', did: 'did nothing' },
    ]);

    // Loaded again with a bound too small for any chunk: each goes, said by what it held.
    logs.length = 0;
    const small = await loadHistoryArchive({ ...setup, maxMb: 0.0001 }, {}, emptyConversation());
    small.add(turnOf(8, 'a new message'), undefined);
    await small.save();
    const held = logs.map(
      line => /^history: dropped its oldest chunk \((.*); \d+ bytes\)/.exec(line)?.[1],
    );
    expect(held).toEqual([
      '1 exchange, messages #7–#7, 2026-11-20 to 2026-11-20',
      `chunk c2-${chunks[1]![1].length}`,
      `chunk c3-${chunks[2]![1].length}`,
      '1 exchange',
      `chunk c5-${Buffer.byteLength(torn)}`,
    ]);
    expect(small.describe()).toEqual([
      expect.stringMatching(/^1 chunk \(the open one holds 1 exchange\), /),
      '5 oldest chunks dropped since start',
    ]);
    expect([...(await E(powers).list('agent-history'))].sort()).toEqual(['notes']);
  });

  test('a long exchange is shown cut around the first word found, or from its start when only the rest matched', async () => {
    const powers = await guestPowers();
    const archive = await loadHistoryArchive(
      { powers, log: () => {}, redact: noSecrets, clock: makeManualClock(), maxMb: 16 },
      {},
      emptyConversation(),
    );
    const before = 'the weather was grey that morning. '.repeat(40);
    const after = 'and then we talked about the garden. '.repeat(40);
    archive.add(turnOf(9, `${before}The harbour code is 4417. ${after}`), undefined);
    archive.add(turnOf(10, before, 'the harbour closes at six'), undefined);
    await archive.save();
    const { found } = await archive.search('harbour');
    const around = found.find(exchange => exchange.messageNumber === 9)!;
    expect(around.message).toMatch(/^….*The harbour code is 4417\. .*…$/);
    expect(around.message.length).toBeLessThanOrEqual(602);
    const fromStart = found.find(exchange => exchange.messageNumber === 10)!;
    expect(fromStart.message).toMatch(/^the weather was grey that morning\. .*…$/);
    expect(fromStart.message.length).toBe(601);
    expect(fromStart.did).toBe('replied "the harbour closes at six"');
  });

  test('secret values never reach a chunk, open or closed', async () => {
    const powers = await guestPowers();
    const memory: OpenChunkHolder = {};
    const archive = await loadHistoryArchive(
      { powers, log: () => {}, redact: noSecrets, clock: makeManualClock(), maxMb: 16 },
      memory,
      emptyConversation(),
    );
    archive.add(
      turnOf(1, 'my key is sk-very-secret', 'I will not repeat sk-very-secret'),
      undefined,
    );
    await archive.save();
    const open = JSON.stringify(memory.openChunk);
    expect(open).toContain('my key is [redacted]');
    expect(open).not.toContain('sk-very-secret');
    // Filled and written under its closed name: redacted there too.
    for (let number = 2; number <= 4; number += 1)
      archive.add(turnOf(number, 'x'.repeat(3_000)), undefined);
    await archive.save();
    const [closed] = await E(powers).list('agent-history');
    const stored = String(await E(powers).lookup(['agent-history', closed!]));
    expect(stored).toContain('my key is [redacted]');
    expect(stored).not.toContain('sk-very-secret');
  });
});

describe('ranking', () => {
  test('words: lower case, accents and plurals dropped, codes split; a question keeps its telling words', () => {
    expect(wordsOf('The vault Codes: 4711-XQ, Café 7')).toEqual([
      'the',
      'vault',
      'code',
      '4711',
      'xq',
      'cafe',
      '7',
    ]);
    expect(queryWords('What is the vault code?')).toEqual(['vault', 'code']);
    expect(queryWords('What is it?')).toEqual(['what', 'is', 'it']);
  });

  test('BM25: the exchange with the rarer word first, a shorter one before a longer one, the later of equals first', () => {
    const ranking = makeBm25<string>(queryWords('vault code'));
    const documents: Record<string, string> = {
      a: 'the door code is 12',
      b: 'the vault code is 4711-XQ',
      c: 'code review at noon',
      d: `the vault code is 4711-XQ, ${'and many other words '.repeat(10)}`,
      e: 'nothing to see',
      f: 'the vault code is 4711-XQ',
    };
    for (const [ref, text] of Object.entries(documents)) ranking.see(wordsOf(text), ref);
    expect(ranking.documents()).toBe(6);
    expect(ranking.top(10).map(({ ref }) => ref)).toEqual(['f', 'b', 'd', 'c', 'a']);
  });
});
