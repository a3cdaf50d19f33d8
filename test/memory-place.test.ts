/**
 * Where the memory lies, as a module (src/memory/memory-place.ts, memory
 * version 12): the state directory made when missing; a version 11 memory
 * at `agent-memory` moved in by one move, its value not written again; a
 * move that stopped half-way finished; an older memory beside the new one
 * kept aside by its version, never over another kept one. The agent-level
 * tests are in agent-memory-place.test.ts.
 */
import { describe, expect, test } from 'vitest';
import {
  asidePath,
  hasMemory,
  MEMORY_SHOWN,
  placeMemory,
  readMemory,
  writeMemory,
} from '../src/memory/memory-place.js';
import { makePathStore } from './support/path-store.js';

const OLD = JSON.stringify({ version: 11, conversation: { turns: [] } });

const place = async (store: ReturnType<typeof makePathStore>) => {
  const logs: string[] = [];
  await placeMemory(store.powers, line => logs.push(line));
  return logs;
};

describe('placeMemory', () => {
  test('a guest with nothing yet: agent-state/ is made, nothing else done or said', async () => {
    const store = makePathStore({}, { directories: [] });
    expect(await place(store)).toEqual([]);
    expect(store.calls).toEqual(['makeDirectory agent-state']);
    expect(await hasMemory(store.powers)).toBe(false);
  });

  test('an existing agent-state/ is kept (making it again would empty it)', async () => {
    const store = makePathStore({ 'agent-state/memory': 'mine' });
    expect(await place(store)).toEqual([]);
    expect(store.calls).toEqual([]);
    expect(await readMemory(store.powers)).toBe('mine');
  });

  test('a version 11 memory is moved in by one move: the same value, the old name gone, said once', async () => {
    const store = makePathStore({ 'agent-memory': OLD }, { directories: [] });
    const oldId = store.ids.get('agent-memory');
    expect(await place(store)).toEqual([
      `the memory moved from agent-memory to ${MEMORY_SHOWN}, where no follower hears it written`,
    ]);
    expect(store.calls).toEqual([
      'makeDirectory agent-state',
      'move agent-memory agent-state/memory',
    ]);
    expect(store.ids.get('agent-state/memory')).toBe(oldId);
    expect(store.values.has('agent-memory')).toBe(false);
    expect(await readMemory(store.powers)).toBe(OLD);
    // Placed: the next start finds nothing to move.
    store.calls.length = 0;
    expect(await place(store)).toEqual([]);
    expect(store.calls).toEqual([]);
  });

  test('a move that stopped after its write (one value under both names): the old name is removed, nothing kept aside', async () => {
    const store = makePathStore({ 'agent-memory': OLD });
    store.values.set('agent-state/memory', OLD);
    store.ids.set('agent-state/memory', store.ids.get('agent-memory')!);
    expect(await place(store)).toEqual([]);
    expect(store.calls).toEqual(['remove agent-memory']);
    expect([...store.values.keys()]).toEqual(['agent-state/memory']);
  });

  test.each([
    ['version 11', OLD, 'agent-state/memory-v11'],
    ['no version', JSON.stringify({ conversation: {} }), 'agent-state/memory-unread'],
    [
      'a version that is no whole number',
      JSON.stringify({ version: 1.5 }),
      'agent-state/memory-unread',
    ],
    ['version 0', JSON.stringify({ version: 0 }), 'agent-state/memory-unread'],
    ['not JSON', '{"version": 11', 'agent-state/memory-unread'],
    ['JSON null', 'null', 'agent-state/memory-unread'],
    ['not a string', 11, 'agent-state/memory-unread'],
  ])(
    'an older memory beside the one in its place (%s) is kept aside by its version, untouched, and said',
    async (_what, old, aside) => {
      const store = makePathStore({ 'agent-state/memory': 'current', 'agent-memory': old });
      expect(await place(store)).toEqual([
        `agent-memory was found beside ${MEMORY_SHOWN} (an older version run since?); kept aside as "${aside}", untouched`,
      ]);
      expect(store.values.get(aside)).toBe(old);
      expect(store.values.get('agent-state/memory')).toBe('current');
      expect(store.values.has('agent-memory')).toBe(false);
    },
  );
});

describe('asidePath', () => {
  test('by version, never a name in use: -2, -3 … after it', async () => {
    const store = makePathStore({
      'agent-state/memory-v13': 'first',
      'agent-state/memory-v13-2': 'second',
    });
    expect(await asidePath(store.powers, 13)).toEqual(['agent-state', 'memory-v13-3']);
    expect(await asidePath(store.powers, 14)).toEqual(['agent-state', 'memory-v14']);
    expect(await asidePath(store.powers, Number.MAX_SAFE_INTEGER + 2)).toEqual([
      'agent-state',
      'memory-unread',
    ]);
    expect(await asidePath(store.powers, '13')).toEqual(['agent-state', 'memory-unread']);
  });
});

describe('writeMemory', () => {
  test('writes the memory at agent-state/memory, and nowhere else', async () => {
    expect(MEMORY_SHOWN).toBe('agent-state/memory');
    const store = makePathStore();
    await writeMemory(store.powers, '{"version":12}');
    expect(store.calls).toEqual(['storeValue agent-state/memory']);
    expect(await readMemory(store.powers)).toBe('{"version":12}');
    expect(await hasMemory(store.powers)).toBe(true);
  });
});
