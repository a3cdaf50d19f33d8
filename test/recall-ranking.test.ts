/**
 * Recall's ranking and archive at their edges (src/recall/, behaviour 3.11):
 * BM25's scores as Okapi's formula gives them, how ties and limits fall,
 * which words count; the archive's counts in help(), a chunk of the
 * previous format, a store that fails or a history directory the daemon
 * collected, forget() on each. The main paths are in recall-history.test.ts
 * and agent-recall.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { E, Far } from '@endo/far';
import { emptyConversation, startTurn, type Turn } from '../src/history/conversation.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import {
  CHUNK_BYTES,
  loadHistoryArchive,
  type OpenChunkHolder,
} from '../src/recall/history-archive.js';
import { recordOfTurn } from '../src/recall/exchange-record.js';
import { serializeChunk, utf8Bytes } from '../src/recall/history-chunks.js';
import { makeBm25 } from '../src/recall/rank-bm25.js';
import { queryWords, wordsOf } from '../src/recall/search-words.js';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeManualClock } from './support/manual-clock.js';

/** Okapi BM25 of one document, written out: k1 = 1.2, b = 0.75, idf = ln(1 + (N - n + 0.5) / (n + 0.5)). */
const okapi = (
  counts: number[],
  frequencies: number[],
  documents: number,
  length: number,
  averageLength: number,
) =>
  counts.reduce((sum, count, term) => {
    const n = frequencies[term]!;
    const idf = Math.log(1 + (documents - n + 0.5) / (n + 0.5));
    return sum + (idf * count * 2.2) / (count + 1.2 * (0.25 + (0.75 * length) / averageLength));
  }, 0);

describe('BM25', () => {
  test("scores are Okapi BM25's, with the collection counted as it was seen", () => {
    const ranking = makeBm25<string>(['vault', 'code']);
    ranking.see(['vault', 'code', 'code', 'is', 'here'], 'a');
    ranking.see(['the', 'code'], 'b');
    ranking.see(['nothing', 'here', 'at', 'all', 'today', 'now'], 'c');
    expect(ranking.documents()).toBe(3);
    const top = ranking.top(5);
    expect(top.map(({ ref }) => ref)).toEqual(['a', 'b']);
    expect(top[0]!.score).toBeCloseTo(okapi([1, 2], [1, 2], 3, 5, 13 / 3), 10);
    expect(top[1]!.score).toBeCloseTo(okapi([0, 1], [1, 2], 3, 2, 13 / 3), 10);
  });

  test('a collection of short or empty documents is measured against a length of at least one', () => {
    const ranking = makeBm25<string>(['x']);
    ranking.see(['x'], 'a');
    ranking.see([], 'b');
    ranking.see([], 'c');
    ranking.see([], 'd');
    const [best] = ranking.top(1);
    expect(best!.score).toBeCloseTo(okapi([1], [1], 4, 1, 1), 10);
  });

  test('the best `limit`, ties the newer first, whichever order the documents came in', () => {
    const oldestFirst = makeBm25<number>(['x']);
    for (let n = 1; n <= 4; n += 1) oldestFirst.see(['x', 'y'], n);
    expect(oldestFirst.top(2).map(({ ref }) => ref)).toEqual([4, 3]);
    const newestFirst = makeBm25<number>(['x'], true);
    for (let n = 4; n >= 1; n -= 1) newestFirst.see(['x', 'y'], n);
    expect(newestFirst.top(2).map(({ ref }) => ref)).toEqual([4, 3]);
    expect(makeBm25<number>(['x']).top(3)).toEqual([]);
  });
});

describe('the words compared', () => {
  test('a plural "s" goes from words of four letters or more, never "ss"; single letters go, single digits stay', () => {
    expect(wordsOf('bus codes class kiss it’s a 7 B')).toEqual([
      'bus',
      'code',
      'class',
      'kiss',
      'it',
      '7',
    ]);
    expect(wordsOf('ﬁle Ångström')).toEqual(['file', 'angstrom']);
  });

  test('a query keeps each telling word once', () => {
    expect(queryWords('Where is the vault? The VAULT codes!')).toEqual(['vault', 'code']);
  });

  test('the common words of a question are left out, of every kind', () => {
    expect(queryWords('can you remember what my door code was, do you know?')).toEqual([
      'door',
      'code',
    ]);
  });
});

const turnOf = (number: number, text: string): Turn => {
  const turn = startTurn(
    emptyConversation(),
    `#${number} from HOST`,
    `Message #${number}: ${text}`,
  );
  turn.messages.push({ role: 'assistant', content: 'noted' });
  return turn;
};

/** The guest's powers, with methods the test can make fail (`collected`: as a directory the daemon collected). */
const guest = async () => {
  const host = makeMailHost();
  await E(host.host).provideGuest('lal', { agentName: 'profile-for-lal' });
  const real = host.guest('lal').powers as unknown as Record<
    string,
    (...args: unknown[]) => unknown
  >;
  const failing = new Map<string, string>();
  const methods: Record<string, (...args: unknown[]) => unknown> = {};
  for (const name of [
    'has',
    'list',
    'lookup',
    'storeValue',
    'makeDirectory',
    'remove',
    'move',
    'write',
  ]) {
    methods[name] = (...args: unknown[]) => {
      const why = failing.get(name);
      if (why !== undefined) throw Error(why);
      return E(real)[name]!(...args);
    };
  }
  return {
    powers: Far('powers', methods) as unknown as PowersRef,
    real: real as unknown as PowersRef,
    fail: (method: string, why = 'daemon busy') => failing.set(method, why),
    heal: () => failing.clear(),
  };
};

/** An archive on `powers`; `memory` holds its open chunk, as the agent's memory does (kept across a restart). */
const load = async (
  powers: PowersRef,
  maxMb = 16,
  conversation = emptyConversation(),
  memory: OpenChunkHolder = {},
) => {
  const logs: string[] = [];
  const archive = await loadHistoryArchive(
    { powers, log: line => logs.push(line), redact: text => text, clock: makeManualClock(), maxMb },
    memory,
    conversation,
  );
  return { archive, logs, memory };
};

/** Adds three turns of 3,000 characters (the most a record keeps), which fill a chunk, without saving. */
const addAFullChunk = (
  archive: Awaited<ReturnType<typeof load>>['archive'],
  first: number,
  words: string,
): number => {
  for (let number = first; number < first + 3; number += 1)
    archive.add(turnOf(number, `${words} ${'x'.repeat(3_000)}`), undefined);
  return first + 3;
};

/** Adds turns of 400 characters, saving after each, until the open chunk closes; the numbers used. */
const fillAChunk = async (
  archive: Awaited<ReturnType<typeof load>>['archive'],
  first: number,
): Promise<number> => {
  const chunks = () => Number(/^(\d+) chunk/.exec(archive.describe()[0]!)?.[1]);
  const before = chunks();
  let number = first;
  while (chunks() === before && number < first + 100) {
    archive.add(turnOf(number, `${'filler '.repeat(57)}${number}`), undefined);
    number += 1;
    await archive.save();
  }
  return number;
};

describe('the archive', () => {
  test('help() counts chunks and exchanges in the singular and the plural', async () => {
    const { powers } = await guest();
    const { archive } = await load(powers);
    expect(archive.describe()).toEqual([
      '1 chunk (the open one holds 0 exchanges), 0.00 of 16 MB (LAL_HISTORY_MB); searchable with mail recall',
    ]);
    archive.add(turnOf(1, 'one'), undefined);
    expect(archive.describe()[0]).toMatch(/^1 chunk \(the open one holds 1 exchange\), /);
    archive.add(turnOf(2, 'two'), undefined);
    expect(archive.describe()[0]).toMatch(/^1 chunk \(the open one holds 2 exchanges\), /);
  });

  test('a chunk dropped alone is said in the singular', async () => {
    const { powers } = await guest();
    const { archive, logs } = await load(powers, 0.001);
    for (let number = 1; logs.length === 0 && number < 100; number += 1) {
      archive.add(turnOf(number, `${'filler '.repeat(57)}${number}`), {
        number: BigInt(number),
        sender: 'HOST',
      });
      await archive.save();
    }
    expect(logs).toEqual([
      expect.stringMatching(
        /^history: dropped its oldest chunk \(\d+ exchanges, messages #1–#\d+, 2026-11-23 to 2026-11-23; \d+ bytes\) to stay within LAL_HISTORY_MB=0\.001$/,
      ),
    ]);
    expect(archive.describe()[1]).toBe('1 oldest chunk dropped since start');
  });

  test('a store of the previous format: its conversation becomes the first chunk, searchable, and said', async () => {
    const { powers } = await guest();
    const conversation = emptyConversation();
    conversation.turns.push(turnOf(3, 'the boat is blue'));
    const { archive, logs } = await load(powers, 16, conversation);
    expect(logs).toEqual(['history: 1 exchanges of the stored conversation can now be searched']);
    expect((await archive.search('boat')).found).toHaveLength(1);
  });

  test('a history directory that cannot be read starts again, said in the log', async () => {
    const { powers, fail } = await guest();
    fail('has');
    const { archive, logs } = await load(powers);
    expect(logs).toEqual(['could not read agent-history/ (daemon busy); the history starts again']);
    expect(archive.describe()[0]).toMatch(/^1 chunk \(the open one holds 0 exchanges\)/);
  });

  test('a history directory the daemon collected starts again, and is made anew when a chunk is first written', async () => {
    const { powers, real, fail, heal } = await guest();
    await E(real).makeDirectory('agent-history');
    fail('list', 'No reference exists at path agent-history');
    const { archive, logs } = await load(powers);
    expect(logs).toEqual([
      'agent-history/ names a directory the daemon collected; the history starts again',
    ]);
    heal();
    await E(real).remove('agent-history');
    await fillAChunk(archive, 1);
    expect(await E(real).list('agent-history')).toEqual([expect.stringMatching(/^c1-\d+$/)]);
  });

  test('a save that fails keeps the exchanges and writes them at the next; one that meets a collected directory makes it again', async () => {
    const { powers, real, fail, heal } = await guest();
    const { archive, logs, memory } = await load(powers);
    const next = addAFullChunk(archive, 1, 'the lamp is green');
    fail('makeDirectory');
    await archive.save();
    expect(logs).toEqual(['could not save the history: daemon busy']);
    // Still in the open chunk the memory writes: nothing is lost meanwhile.
    expect(memory.openChunk).toMatchObject({ seq: 1, exchanges: { length: 3 } });
    heal();
    await archive.save();
    expect(await E(real).list('agent-history')).toEqual([expect.stringMatching(/^c1-\d+$/)]);
    expect(memory.openChunk).toEqual({ seq: 2, exchanges: [] });
    // Collected: the next save makes the directory again.
    await E(real).remove('agent-history');
    addAFullChunk(archive, next, 'the door is red');
    fail('storeValue', 'No reference exists at path agent-history');
    await archive.save();
    heal();
    await archive.save();
    expect((await archive.search('door')).found).toHaveLength(3);
    expect(await E(real).list('agent-history')).toEqual([expect.stringMatching(/^c2-\d+$/)]);
  });

  test('forget() says how many chunks went (none when empty), and a store that fails is logged', async () => {
    const { powers, fail } = await guest();
    const { archive, logs } = await load(powers);
    expect(await archive.forget()).toBe(0);
    const next = await fillAChunk(archive, 1);
    archive.add(turnOf(next, 'the kite is yellow'), undefined);
    await archive.save();
    fail('list');
    expect(await archive.forget()).toBe(2);
    expect(logs).toEqual(['could not clear agent-history/: daemon busy']);
    expect((await archive.search('kite')).found).toEqual([]);
  });

  test("a sender's search finds that sender's exchanges only", async () => {
    const { powers } = await guest();
    const { archive } = await load(powers);
    archive.add(turnOf(1, 'the kite is yellow'), { number: 1n, sender: 'alice' });
    archive.add(turnOf(2, 'the kite is red'), { number: 2n, sender: 'bob' });
    const found = (await archive.search('kite', 'bob')).found;
    expect(found.map(exchange => exchange.from)).toEqual(['bob']);
  });
});

describe('the archive across restarts, bounds and failures', () => {
  test('after a restart the open chunk is read back: its exchanges are counted and found, and the closed ones kept', async () => {
    const { powers } = await guest();
    const before = await load(powers);
    const next = await fillAChunk(before.archive, 1);
    before.archive.add(turnOf(next, 'the vault code is 4711'), {
      number: BigInt(next),
      sender: 'HOST',
    });
    await before.archive.save();
    // The memory as it was written after that save.
    const stored = JSON.parse(JSON.stringify(before.memory)) as OpenChunkHolder;
    const { archive } = await load(powers, 16, emptyConversation(), stored);
    expect(archive.describe()[0]).toMatch(/^2 chunks \(the open one holds 1 exchange\), /);
    expect((await archive.search('vault')).found.map(found => found.messageNumber)).toEqual([next]);
    archive.add(turnOf(next + 1, 'the lamp is green'), undefined);
    await archive.save();
    expect((await archive.search('filler')).found.length).toBeGreaterThan(0);
  });

  test('nothing added, nothing written: a save makes no history directory', async () => {
    const { powers, real } = await guest();
    const { archive } = await load(powers);
    await archive.save();
    expect(await E(real).has('agent-history')).toBe(false);
  });

  test('a history that could not be read at start is made when a chunk is first written', async () => {
    const { powers, real, fail, heal } = await guest();
    fail('has');
    const { archive } = await load(powers);
    heal();
    archive.add(turnOf(1, 'the lamp is green'), undefined);
    await archive.save();
    expect(await E(real).has('agent-history')).toBe(false);
    await fillAChunk(archive, 2);
    expect(await E(real).list('agent-history')).toEqual([expect.stringMatching(/^c1-\d+$/)]);
  });

  test('a chunk of exactly the closing size is closed; the count of chunks is then plural', async () => {
    const { powers } = await guest();
    const { archive } = await load(powers);
    const at = makeManualClock().now();
    const texts = ['a', 'b', 'c'].map(letter => letter.repeat(2500));
    const sizeWith = (pad: number) =>
      utf8Bytes(
        serializeChunk(
          [...texts, 'd'.repeat(pad)].map((text, index) =>
            recordOfTurn(turnOf(index + 1, text), undefined, at, same => same),
          ),
        ),
      );
    const pad = CHUNK_BYTES - sizeWith(0);
    expect(sizeWith(pad)).toBe(CHUNK_BYTES);
    for (const [index, text] of [...texts, 'd'.repeat(pad)].entries()) {
      archive.add(turnOf(index + 1, text), undefined);
      // One save per turn, as the serving loop does.
      await archive.save();
    }
    expect(archive.describe()[0]).toMatch(/^2 chunks \(the open one holds 0 exchanges\), /);
  });

  test('a chunk dropped whose read fails is still dropped, named by its name', async () => {
    const { powers, real, fail } = await guest();
    const { archive, logs } = await load(powers, 0.01);
    const next = await fillAChunk(archive, 1);
    const [closed] = await E(real).list('agent-history');
    fail('lookup');
    await fillAChunk(archive, next);
    expect(logs[0]).toMatch(
      new RegExp(
        `^history: dropped its oldest chunk \\(chunk ${closed}; \\d+ bytes\\) to stay within LAL_HISTORY_MB=0\\.01$`,
      ),
    );
    expect(await E(real).list('agent-history')).not.toContain(closed);
  });

  test('a save that fails for another reason than a collected directory keeps the chunks there', async () => {
    const { powers, real, fail, heal } = await guest();
    const { archive } = await load(powers);
    const next = await fillAChunk(archive, 1);
    addAFullChunk(archive, next, 'the kite is yellow');
    fail('storeValue');
    await archive.save();
    heal();
    await archive.save();
    expect((await E(real).list('agent-history')).length).toBe(2);
    expect((await archive.search('filler')).found.length).toBeGreaterThan(0);
    expect((await archive.search('kite')).found).toHaveLength(3);
  });

  test('after forget() nothing is open, and a save writes nothing', async () => {
    const { powers, real } = await guest();
    const { archive, memory } = await load(powers);
    const next = await fillAChunk(archive, 1);
    archive.add(turnOf(next, 'the kite is yellow'), undefined);
    await archive.save();
    expect(await archive.forget()).toBe(2);
    expect(archive.describe()[0]).toMatch(/^1 chunk \(the open one holds 0 exchanges\), /);
    expect(memory.openChunk).toEqual({ seq: 1, exchanges: [] });
    await archive.save();
    expect(await E(real).list('agent-history')).toEqual([]);
  });
});

describe('the open chunk the memory holds, checked at load (memory version 11)', () => {
  const record = (n: number, words: string) => ({
    n,
    from: 'HOST',
    in: `Message #${n}: ${words}`,
    out: 'noted',
  });
  const chunkText = (exchanges: unknown[]) => JSON.stringify({ version: 1, exchanges });
  /** A store with these chunks in agent-history/ (name → exchanges, or a text as it is). */
  const storeWith = async (chunks: Record<string, unknown[] | string>) => {
    const { powers, real, fail, heal } = await guest();
    await E(real).makeDirectory('agent-history');
    for (const [name, held] of Object.entries(chunks))
      await E(real).storeValue(typeof held === 'string' ? held : chunkText(held), [
        'agent-history',
        name,
      ]);
    return { powers, real, fail, heal };
  };
  const names = async (real: PowersRef) => [...(await E(real).list('agent-history'))].sort();

  test("version 10's open chunk is closed as it stands under the next number; one that holds nothing is removed", async () => {
    const older = [record(1, 'the lamp is green')];
    const open = [record(2, 'the boat is blue'), record(3, 'the door is red')];
    const { powers, real } = await storeWith({ 'c1-99': older, open });
    const { archive, logs, memory } = await load(powers);
    const closedAs = `c2-${utf8Bytes(chunkText(open))}`;
    expect(await names(real)).toEqual(['c1-99', closedAs]);
    expect(logs).toEqual([
      `history: the open chunk of version 10 (2 exchanges) closed as ${closedAs}`,
    ]);
    expect(memory.openChunk).toEqual({ seq: 3, exchanges: [] });
    expect((await archive.search('boat')).found.map(found => found.messageNumber)).toEqual([2]);

    const empty = await storeWith({ 'c1-99': older, open: [] });
    const again = await load(empty.powers);
    expect(await names(empty.real)).toEqual(['c1-99']);
    expect(again.logs).toEqual([]);
    expect(again.memory.openChunk).toEqual({ seq: 2, exchanges: [] });
  });

  test('a chunk written under its number that begins with its exchanges holds them: kept once, the next chunk started', async () => {
    const first = record(5, 'the boat is blue');
    const { powers } = await storeWith({
      'c1-99': [record(1, 'the lamp is green')],
      'c2-99': [first, record(6, 'the door is red')],
    });
    const { archive, logs, memory } = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 2, exchanges: [first] },
    });
    expect(memory.openChunk).toEqual({ seq: 3, exchanges: [] });
    expect(logs).toEqual([
      'history: c2-99 was written before the memory said so (a stop between the two); its 1 exchanges are kept once',
    ]);
    expect((await archive.search('boat')).found).toHaveLength(1);
    // An empty open chunk whose number a chunk took moves on without a word.
    const quiet = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 1, exchanges: [] },
    });
    expect(quiet.memory.openChunk).toEqual({ seq: 3, exchanges: [] });
    expect(quiet.logs).toEqual([]);
  });

  test('under a number a chunk took that does not begin with them, or that did not read, its exchanges are kept under the next', async () => {
    const mine = [record(5, 'the boat is blue'), record(6, 'the door is red')];
    const { powers } = await storeWith({
      // Begins like mine, then differs: not the chunk written from it.
      'c1-99': [mine[0], record(7, 'the kite is yellow')],
      'c2-99': 'not a chunk',
    });
    const differs = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 1, exchanges: mine },
    });
    expect(differs.memory.openChunk).toEqual({ seq: 3, exchanges: mine });
    expect(differs.logs).toEqual([]);
    const unread = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 2, exchanges: mine },
    });
    expect(unread.memory.openChunk).toEqual({ seq: 3, exchanges: mine });
    // Longer than the chunk: the chunk cannot have been written from it.
    const { powers: other } = await storeWith({ 'c1-99': [mine[0]] });
    const longer = await load(other, 16, emptyConversation(), {
      openChunk: { seq: 1, exchanges: mine },
    });
    expect(longer.memory.openChunk).toEqual({ seq: 2, exchanges: mine });
  });

  test('a number past the closed chunks is kept as it is; a chunk under its number that cannot be read keeps its exchanges too (twice rather than lost)', async () => {
    const mine = [record(5, 'the boat is blue')];
    const { powers, fail } = await storeWith({ 'c1-99': [record(1, 'the lamp is green')] });
    const ahead = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 4, exchanges: mine },
    });
    expect(ahead.memory.openChunk).toEqual({ seq: 4, exchanges: mine });
    const at = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 2, exchanges: mine },
    });
    expect(at.memory.openChunk).toEqual({ seq: 2, exchanges: mine });
    fail('lookup');
    const failing = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 1, exchanges: mine },
    });
    expect(failing.memory.openChunk).toEqual({ seq: 2, exchanges: mine });
    expect(failing.logs).toEqual([]);
  });

  test('a memory that holds an open chunk is not made again from its conversation, with or without a history', async () => {
    const { powers, real } = await guest();
    const conversation = emptyConversation();
    conversation.turns.push(turnOf(3, 'the boat is blue'));
    const { archive, logs, memory } = await load(powers, 16, conversation, {
      openChunk: { seq: 1, exchanges: [] },
    });
    expect(logs).toEqual([]);
    expect(memory.openChunk).toEqual({ seq: 1, exchanges: [] });
    expect((await archive.search('boat')).found).toEqual([]);
    expect(await E(real).has('agent-history')).toBe(false);
  });
});

describe('the history directory found at load', () => {
  test('is the one chunks go on being written in: not made again over the chunks it holds', async () => {
    const { powers, real } = await guest();
    await E(real).makeDirectory('agent-history');
    await E(real).storeValue(JSON.stringify({ version: 1, exchanges: [] }), [
      'agent-history',
      'c1-9',
    ]);
    const before = await E(real).identify('agent-history');
    const { archive } = await load(powers);
    await fillAChunk(archive, 1);
    expect(await E(real).identify('agent-history')).toBe(before);
    expect([...(await E(real).list('agent-history'))].sort()).toEqual([
      'c1-9',
      expect.stringMatching(/^c2-\d+$/),
    ]);
    // The same with an empty open chunk of version 10 there, removed at load.
    const other = await guest();
    await E(other.real).makeDirectory('agent-history');
    await E(other.real).storeValue(JSON.stringify({ version: 1, exchanges: [] }), [
      'agent-history',
      'open',
    ]);
    const id = await E(other.real).identify('agent-history');
    const reloaded = await load(other.powers);
    await fillAChunk(reloaded.archive, 1);
    expect(await E(other.real).identify('agent-history')).toBe(id);
    expect(await E(other.real).list('agent-history')).toEqual([expect.stringMatching(/^c1-\d+$/)]);
  });

  test('an open chunk numbered below the closed ones, where no chunk has its number (dropped), keeps its exchanges under the next', async () => {
    const { powers, real } = await guest();
    await E(real).makeDirectory('agent-history');
    await E(real).storeValue(JSON.stringify({ version: 1, exchanges: [] }), [
      'agent-history',
      'c3-9',
    ]);
    const mine = [{ n: 5, in: 'Message #5: the boat is blue', out: 'noted' }];
    const { memory } = await load(powers, 16, emptyConversation(), {
      openChunk: { seq: 1, exchanges: mine },
    });
    expect(memory.openChunk).toEqual({ seq: 4, exchanges: mine });
  });
});
