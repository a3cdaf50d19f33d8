/**
 * Who gave each adopted tool (src/agent-tools/tool-givers.ts, behaviour 9.8): kept as a versioned JSON
 * string; a store without the record (the release before) or with one that does not read counts
 * every tool as the HOST's, and says so in the log when it did not read; a record holds for the
 * formula id adopted only, so a tool the HOST later puts under the same pet name is the HOST's.
 */
import { TOOL_GIVERS_NAME } from '../src/daemon/own-names.js';
import { describe, expect, test } from 'vitest';
import { loadToolGivers } from '../src/agent-tools/tool-givers.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

const storeOf = (entries: Record<string, unknown>) => {
  const values = new Map(Object.entries(entries));
  const powers = {
    has: (name: string) => values.has(name),
    lookup: (name: string) => values.get(name),
    storeValue: (value: unknown, name: string) => {
      values.set(name, value);
    },
  };
  return { powers: powers as unknown as PowersRef, values };
};

describe('tool givers', () => {
  test("a store of the release before has none: every tool is the HOST's, nothing logged", async () => {
    const logs: string[] = [];
    const givers = await loadToolGivers(storeOf({}).powers, line => logs.push(line));
    expect(givers.giverOf('calc', 'id1')).toBeUndefined();
    expect(logs).toEqual([]);
  });

  test("a record that does not read is said in the log, and every tool is the HOST's", async () => {
    const logs: string[] = [];
    const { powers } = storeOf({ [TOOL_GIVERS_NAME]: '{not json' });
    const givers = await loadToolGivers(powers, line => logs.push(line));
    expect(givers.giverOf('calc', 'id1')).toBeUndefined();
    expect(logs).toEqual([
      expect.stringMatching(
        /^agent-tool-givers did not read \(.*\): every tool in tools\/ counts as the HOST's, and it is left as it is$/,
      ),
    ]);
  });

  test('adoptions are kept in order, for their formula id only, and read back after a restart', async () => {
    const { powers, values } = storeOf({});
    const givers = await loadToolGivers(powers, () => {});
    await givers.adopted('a-calc', 'id1', 'mallory');
    await givers.adopted('b-echo', 'id2', 'bob');
    expect(givers.giverOf('a-calc', 'id1')).toEqual({ from: 'mallory', order: 1 });
    expect(givers.giverOf('b-echo', 'id2')).toEqual({ from: 'bob', order: 2 });
    expect(givers.giverOf('a-calc', 'id9')).toBeUndefined();
    expect(JSON.parse(String(values.get(TOOL_GIVERS_NAME)))).toMatchObject({ version: 1 });
    const again = await loadToolGivers(powers, () => {});
    expect(again.giverOf('b-echo', 'id2')).toEqual({ from: 'bob', order: 2 });
    // Adopted again under the same pet name: the newer record replaces the older.
    await again.adopted('a-calc', 'id3', 'carol');
    expect(again.giverOf('a-calc', 'id1')).toBeUndefined();
    expect(again.giverOf('a-calc', 'id3')).toEqual({ from: 'carol', order: 3 });
  });

  test('a record of another version is not read, and never overwritten', async () => {
    const newer = JSON.stringify({
      version: 2,
      given: [{ petName: 'x', id: 'i', from: 'm', order: 1 }],
    });
    const { powers, values } = storeOf({ [TOOL_GIVERS_NAME]: newer });
    const givers = await loadToolGivers(powers, () => {});
    expect(givers.giverOf('x', 'i')).toBeUndefined();
    await givers.adopted('y', 'j', 'bob');
    expect(givers.giverOf('y', 'j')).toEqual({ from: 'bob', order: 1 });
    expect(values.get(TOOL_GIVERS_NAME)).toBe(newer);
  });
});
