/**
 * The agent's memory in the guest's store, as a module: every version this
 * release can read loads (version 1 with no usage or wake-ups), a damaged
 * or foreign value starts afresh with a logged reason instead of a crash,
 * damaged parts of a version 2 memory are left out and the rest kept, a
 * store that fails never throws into the agent, and what is saved is
 * redacted. The agent-level restart tests are in agent-history.test.ts.
 */
import { MEMORY_PATH } from '../src/daemon/own-names.js';
import { MEMORY_SHOWN } from '../src/memory/memory-place.js';
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { makePathStore } from './support/path-store.js';
import {
  loadMemory,
  saveMemory,
  freshMemory,
  VERSION,
  type Memory,
} from '../src/memory/agent-memory.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import { BEFORE_LABELS } from '../src/history/word-labels.js';

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0);

/** Where the memory lies in the fake store below: its path, spelt with slashes. */
const MEMORY = MEMORY_PATH.join('/');

/** A guest's store as far as the memory uses it (./support/path-store.ts). */
const makeStore = (
  initial: Record<string, unknown> = {},
  fail: { lookup?: boolean; store?: boolean } = {},
) => makePathStore(initial, { fail });

const conversation = {
  digest: [{ text: 'said hello', count: 1 }],
  omitted: 0,
  turns: [{ title: '#1 from HOST: "hi"', messages: [] }],
};
const wakeUp = { id: 'w1', at: NOW + 1_000, note: 'ring', setAt: NOW };
/** A wake-up of a store from before labels loads labelled as such (version 10, docs/behaviour.md 9.11). */
const labelled = (entry: typeof wakeUp) => ({ ...entry, read: BEFORE_LABELS });
const usage = {
  since: NOW - 5_000,
  byModel: { m: { calls: 2, inputTokens: 10, outputTokens: 4 } },
  recent: [[NOW - 1_000, 14, 2]],
};
// Version 2 kept one [when, tokens] entry per call.
const usageV2 = { ...usage, recent: [[NOW - 1_000, 14]] };

const load = async (stored: unknown, fail: { lookup?: boolean } = {}) => {
  const { powers } = makeStore(stored === undefined ? {} : { [MEMORY]: stored }, fail);
  const logs: string[] = [];
  const memory = await loadMemory(powers, line => logs.push(line), NOW);
  return { memory, logs };
};

/** Saves `memory` into a fresh store, and loads it back: what was stored, and what loads. */
const saveAndLoad = async (memory: Memory) => {
  const { powers, values } = makeStore();
  await saveMemory(
    powers,
    memory,
    () => {},
    text => text,
  );
  const stored = values.get(MEMORY);
  return {
    saved: JSON.parse(stored as string) as Record<string, unknown>,
    again: await load(stored),
  };
};

describe('loadMemory', () => {
  test('no memory yet: a fresh one, nothing logged', async () => {
    const { memory, logs } = await load(undefined);
    expect(memory).toEqual(freshMemory(NOW));
    expect(logs).toEqual([]);
  });

  test('a version 1 memory keeps its conversation and handled keys, with no usage and no wake-ups', async () => {
    const { memory, logs } = await load(
      JSON.stringify({ version: 1, conversation, handled: ['id:a'] }),
    );
    expect(memory).toEqual({
      conversation,
      wordsBeforeLabels: conversation,
      handled: ['id:a'],
      usage: { since: NOW, byModel: {}, recent: [] },
      wakeUps: [],
      asks: { next: 1, pending: [] },
      holds: [],
      notices: [],
      senders: [],
      helpers: { seq: 0, running: [] },
      threads: [],
    });
    expect(logs).toEqual([]);
  });

  test('a whole version 4 memory loads as it was saved, its asks sent (version 5); a damaged pending ask is left out and logged', async () => {
    const ask = {
      id: 'r3',
      kind: 'request',
      recipient: 'HOST',
      description: 'the door code',
      origin: { number: '4', sender: 'HOST' },
      detail: {},
    };
    const asks = { next: 4, pending: [ask] };
    const migrated = { next: 4, pending: [{ ...ask, state: 'sent' }] };
    const whole = await load(
      JSON.stringify({
        version: 4,
        conversation,
        handled: [],
        usage,
        wakeUps: [wakeUp],
        asks,
        toldToWait: ['id:x'],
      }),
    );
    expect(whole.memory).toEqual({
      conversation,
      wordsBeforeLabels: conversation,
      handled: [],
      usage,
      wakeUps: [labelled(wakeUp)],
      asks: migrated,
      holds: [{ key: 'message id:x', why: 'quota' }],
      notices: [],
      senders: [],
      helpers: { seq: 0, running: [] },
      threads: [],
    });
    expect(whole.logs).toEqual([]);
    const damaged = await load(
      JSON.stringify({
        version: 4,
        conversation,
        handled: [],
        usage,
        wakeUps: [],
        asks: { next: 4, pending: [ask, { id: 7 }] },
      }),
    );
    expect(damaged.memory.asks).toEqual(migrated);
    expect(damaged.logs).toEqual([
      `${MEMORY_SHOWN}: 1 pending ask(s) did not read and were left out`,
    ]);
  });

  test('a version 6 memory keeps the senders it served and their holds (moved to the told marks); a damaged one is left out', async () => {
    const bob = {
      key: '0123456789abcdef:fedcba9876543210',
      name: 'bob',
      served: 10,
      last: NOW - 1_000,
      exchanges: 10,
      minutes: [[NOW - 60_000, 10]],
      held: 'exchanges',
      told: true,
    };
    const { memory, logs } = await load(
      JSON.stringify({
        version: 6,
        conversation,
        handled: [],
        usage,
        wakeUps: [],
        senders: [bob, { ...bob, key: 'other', held: 'forever' }, 'carol'],
      }),
    );
    const { held: _held, told: _told, ...counts } = bob;
    expect(memory.senders).toEqual([counts]);
    // The hold the HOST was told of is in the one list of told marks (version 9).
    expect(memory.holds).toEqual([{ key: `sender ${bob.key}`, why: 'exchanges' }]);
    expect(memory.conversation).toEqual(conversation);
    expect(logs).toEqual([]);
  });

  test('a version 7 memory (the release before helpers) loads whole, with no helpers running', async () => {
    const threads = [{ sender: 'bob', conversation }];
    const { memory, logs } = await load(
      JSON.stringify({ version: 7, conversation, threads, handled: ['k1'], usage, wakeUps: [] }),
    );
    expect(memory.conversation).toEqual(conversation);
    expect(memory.threads).toEqual(threads);
    expect(memory.handled).toEqual(['k1']);
    expect(memory.helpers).toEqual({ seq: 0, running: [] });
    expect(logs).toEqual([]);
  });

  test('a version 8 memory keeps the helpers running and their count; a damaged one is left out and logged', async () => {
    const helper = {
      id: 'h3',
      task: 'count the stars',
      granted: ['math'],
      origin: { number: '4', sender: 'HOST' },
      startedAt: NOW - 1_000,
      depth: 1,
    };
    const { memory, logs } = await load(
      JSON.stringify({
        version: 8,
        conversation,
        handled: [],
        usage,
        wakeUps: [],
        helpers: { seq: 3, running: [helper, { ...helper, id: 'h2', granted: 'math' }] },
      }),
    );
    expect(memory.helpers).toEqual({ seq: 3, running: [helper] });
    expect(logs).toEqual([`${MEMORY_SHOWN}: 1 running helper(s) did not read and were left out`]);
    // Saved and loaded again as it was.
    const { again } = await saveAndLoad(memory);
    expect(again.memory.helpers).toEqual({ seq: 3, running: [helper] });
  });

  test('a version 8 memory: its told marks, kept in two places, load into the one list; a damaged one is left out and logged; saved as version 9 they load again', async () => {
    const record = {
      key: 'aaaaaaaaaaaaaaaa:bbbbbbbbbbbbbbbb',
      name: 'bob',
      served: 3,
      last: NOW - 1_000,
      exchanges: 0,
      minutes: [[NOW - 60_000, 3]],
    };
    // As the release before wrote it: the quota's toldToWait, and each sender's held and told.
    const version8 = {
      version: 8,
      conversation,
      handled: [],
      usage,
      wakeUps: [],
      toldToWait: ['id:x', 42, 'id:y', 'id:x'],
      senders: [
        { ...record, held: 'hourly', told: true },
        // Held, the HOST not yet told: no mark, so the HOST is told at its next message.
        { ...record, key: 'c:d', name: 'carol', held: 'exchanges' },
        { ...record, key: 'e:f', name: 'dave' },
        // Told of no hold: damaged.
        { ...record, key: 'g:h', name: 'erin', told: true },
      ],
      helpers: { seq: 0, running: [] },
    };
    const marks = [
      { key: `sender ${record.key}`, why: 'hourly' },
      { key: 'message id:x', why: 'quota' },
      { key: 'message id:y', why: 'quota' },
    ];
    const { memory, logs } = await load(JSON.stringify(version8));
    expect(memory.holds).toEqual(marks);
    expect(memory.senders.map(each => each.name)).toEqual(['bob', 'carol', 'dave', 'erin']);
    expect(memory.senders.every(each => !('held' in each) && !('told' in each))).toBe(true);
    expect(logs).toEqual([`${MEMORY_SHOWN}: 3 told mark(s) did not read and were left out`]);
    const { saved, again } = await saveAndLoad(memory);
    expect(saved.version).toBe(VERSION);
    expect(saved).not.toHaveProperty('toldToWait');
    expect(again.memory.holds).toEqual(marks);
    expect(again.memory.senders).toEqual(memory.senders);
    expect(again.logs).toEqual([]);
  });

  test('a whole version 3 memory loads as it was saved; a version 2 one with its calls counted one each', async () => {
    const { memory, logs } = await load(
      JSON.stringify({ version: 3, conversation, handled: [], usage, wakeUps: [wakeUp] }),
    );
    expect(memory).toEqual({
      conversation,
      wordsBeforeLabels: conversation,
      handled: [],
      usage,
      wakeUps: [labelled(wakeUp)],
      asks: { next: 1, pending: [] },
      holds: [],
      notices: [],
      senders: [],
      helpers: { seq: 0, running: [] },
      threads: [],
    });
    const v2 = await load(
      JSON.stringify({ version: 2, conversation, handled: [], usage: usageV2, wakeUps: [wakeUp] }),
    );
    expect(v2.memory.usage.recent).toEqual([[NOW - 1_000, 14, 1]]);
    expect([...logs, ...v2.logs]).toEqual([]);
  });

  test('a damaged wake-up or usage in a version 2 memory is left out, the rest kept, and the loss logged', async () => {
    const { memory, logs } = await load(
      JSON.stringify({
        version: 2,
        conversation,
        handled: ['id:b'],
        usage: usageV2,
        wakeUps: [wakeUp, { id: 'w2', at: 'soon' }],
      }),
    );
    expect(memory.wakeUps).toEqual([labelled(wakeUp)]);
    expect(memory.usage.recent).toEqual([[NOW - 1_000, 14, 1]]);
    expect(logs).toEqual([
      `${MEMORY_SHOWN}: part of the usage or wake-ups did not read and was left out`,
    ]);

    const badUsage = await load(
      JSON.stringify({ version: 2, conversation, handled: [], usage: { since: -1 }, wakeUps: [] }),
    );
    expect(badUsage.memory.usage).toEqual({ since: NOW, byModel: {}, recent: [] });
    expect(badUsage.memory.conversation).toEqual(conversation);
    expect(badUsage.logs).toHaveLength(1);
  });

  test.each([
    ['text that is not JSON', '{"version": 2, "conv', 'agent-state/memory-unread', ''],
    ['a value that is not a string', 42, 'agent-state/memory-unread', ''],
    [
      'a future version',
      JSON.stringify({ version: 13, conversation, handled: [] }),
      'agent-state/memory-v13',
      ' (version 13, newer than 12)',
    ],
    [
      'a memory without its conversation',
      JSON.stringify({ version: 2, handled: [] }),
      'agent-state/memory-v2',
      '',
    ],
    [
      'a conversation of the wrong shape',
      JSON.stringify({
        version: 2,
        handled: [],
        conversation: { digest: [], turns: [], omitted: '0' },
      }),
      'agent-state/memory-v2',
      '',
    ],
    ['JSON null', 'null', 'agent-state/memory-unread', ''],
  ])(
    '%s is kept aside, untouched, and the agent starts afresh and says why',
    async (_what, stored, name, why) => {
      const { powers, values } = makeStore({ [MEMORY]: stored });
      const logs: string[] = [];
      const memory = await loadMemory(powers, line => logs.push(line), NOW);
      expect(memory).toEqual({ ...freshMemory(NOW), keptAside: name });
      expect(values.get(name)).toBe(stored);
      expect(logs).toEqual([
        `${MEMORY_SHOWN} is not a memory this version can read${why}; kept aside as "${name}", starting afresh`,
      ]);
    },
  );

  test('a memory kept aside is never overwritten: the next one of that version takes another name', async () => {
    const older = JSON.stringify({ version: 13, conversation, handled: ['id:first'] });
    const newer = JSON.stringify({ version: 13, conversation, handled: ['id:second'] });
    const { powers, values } = makeStore({
      [MEMORY]: newer,
      'agent-state/memory-v13': older,
      'agent-state/memory-v13-2': 'taken too',
    });
    const memory = await loadMemory(powers, () => {}, NOW);
    expect(memory.keptAside).toBe('agent-state/memory-v13-3');
    expect(values.get('agent-state/memory-v13')).toBe(older);
    expect(values.get('agent-state/memory-v13-2')).toBe('taken too');
    expect(values.get('agent-state/memory-v13-3')).toBe(newer);
    // What is saved next does not carry the note.
    await saveMemory(
      powers,
      memory,
      () => {},
      text => text,
    );
    expect(JSON.parse(values.get(MEMORY) as string)).not.toHaveProperty('keptAside');
  });

  test('a memory that exists but does not answer is never overwritten: this run saves nothing', async () => {
    const { powers, values } = makeStore({ [MEMORY]: 'the only copy' }, { lookup: true });
    const logs: string[] = [];
    const memory = await loadMemory(powers, line => logs.push(line), NOW);
    expect(memory).toEqual({
      ...freshMemory(NOW),
      unsaved: `${MEMORY_SHOWN} could not be read (store unreachable)`,
    });
    expect(logs).toEqual([
      `${MEMORY_SHOWN} could not be read (store unreachable); starting afresh, and saving nothing this run`,
    ]);
    await saveMemory(
      powers,
      memory,
      () => {},
      text => text,
    );
    expect(values.get(MEMORY)).toBe('the only copy');
  });

  test('an unreadable memory that cannot be kept aside is not overwritten either', async () => {
    const { powers, values } = makeStore({ [MEMORY]: '{"version": 99' }, { store: true });
    const logs: string[] = [];
    const memory = await loadMemory(powers, line => logs.push(line), NOW);
    expect(memory.unsaved).toBe(`${MEMORY_SHOWN} could not be kept aside (disk full)`);
    await saveMemory(
      powers,
      memory,
      line => logs.push(line),
      text => text,
    );
    expect(values.get(MEMORY)).toBe('{"version": 99');
  });

  test('a store that fails before saying whether a memory exists starts afresh with the reason logged, and saves nothing this run: a memory it could not see is not overwritten', async () => {
    const powers = Far('powers', {
      has() {
        throw Error('store unreachable');
      },
    }) as unknown as PowersRef;
    const logs: string[] = [];
    expect(await loadMemory(powers, line => logs.push(line), NOW)).toEqual({
      ...freshMemory(NOW),
      unsaved: `${MEMORY_SHOWN} could not be put in its place (store unreachable)`,
    });
    expect(logs).toEqual([
      `${MEMORY_SHOWN} could not be put in its place (store unreachable); starting afresh, and saving nothing this run`,
    ]);
  });
});

describe('saveMemory', () => {
  test('the count of wake-ups made is saved and loads back; a damaged one is left out (ids are never made again)', async () => {
    const memory = freshMemory(NOW);
    memory.wakeUpsMade = 3;
    const { saved, again } = await saveAndLoad(memory);
    expect(saved.wakeUpsMade).toBe(3);
    expect(again.memory.wakeUpsMade).toBe(3);
    const damaged = { ...saved, wakeUpsMade: -1 };
    expect((await load(JSON.stringify(damaged))).memory.wakeUpsMade).toBeUndefined();
  });

  test('what is saved is redacted and loads back', async () => {
    const { powers, values } = makeStore();
    const memory = freshMemory(NOW);
    memory.conversation.turns.push({ title: 'the token is s3cret', messages: [] });
    await saveMemory(
      powers,
      memory,
      () => {},
      text => text.replaceAll('s3cret', '[redacted]'),
    );
    expect(values.get(MEMORY)).not.toContain('s3cret');
    const loaded = await loadMemory(powers, () => {}, NOW);
    expect(loaded.conversation.turns[0]!.title).toBe('the token is [redacted]');
  });

  test('each value is redacted before serialisation: a secret holding quotes and backslashes is hidden too', async () => {
    const { powers, values } = makeStore();
    const secret = 'a"b\\c\\"d';
    const memory = freshMemory(NOW);
    memory.conversation.turns.push({ title: `the token is ${secret}`, messages: [] });
    memory.handled.push(secret);
    await saveMemory(
      powers,
      memory,
      () => {},
      text => text.replaceAll(secret, '[redacted]'),
    );
    const saved = values.get(MEMORY) as string;
    expect(saved).not.toContain('c\\\\');
    const loaded = await loadMemory(powers, () => {}, NOW);
    expect(loaded.conversation.turns[0]!.title).toBe('the token is [redacted]');
    expect(loaded.handled).toEqual(['[redacted]']);
  });

  test('a key holding a secret is redacted too, and the rest of its object kept', async () => {
    const { powers, values } = makeStore();
    const memory = freshMemory(NOW);
    const counts = { calls: 1, inputTokens: 3, outputTokens: 4, cachedInputTokens: 0 };
    memory.usage.byModel = { 'model-s3cret': { ...counts }, plain: { ...counts } };
    await saveMemory(
      powers,
      memory,
      () => {},
      text => text.replaceAll('s3cret', '[redacted]'),
    );
    const saved = values.get(MEMORY) as string;
    expect(saved).not.toContain('s3cret');
    const stored = JSON.parse(saved) as { usage: { byModel: Record<string, unknown> } };
    expect(stored.usage.byModel).toEqual({ 'model-[redacted]': counts, plain: counts });
  });

  test('a store that refuses the write is logged, never thrown', async () => {
    const { powers } = makeStore({}, { store: true });
    const logs: string[] = [];
    await expect(
      saveMemory(
        powers,
        freshMemory(NOW),
        line => logs.push(line),
        text => text,
      ),
    ).resolves.toBeUndefined();
    expect(logs).toEqual([`could not save ${MEMORY_SHOWN}: disk full`]);
  });
});
