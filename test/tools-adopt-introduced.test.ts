/**
 * FaeTools the host introduced at the top of the guest's directory move
 * into tools/ at start: special names and the agent's own are never probed,
 * a value that is not a FaeTool stays, a name already taken in tools/ is
 * left with a logged reason, and a name whose look-up fails is logged
 * without stopping the others. The agent-level path is in
 * agent-fae-tools.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { adoptIntroducedTools } from '../src/agent-tools/adopt-introduced-tools.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

const faeTool = (name: string) =>
  Far(name, { schema: () => ({}), execute: () => '', help: () => '' });

const makeDirectory = (
  top: Record<string, unknown>,
  tools: Record<string, unknown> | undefined,
) => {
  const looked: string[] = [];
  const moves: string[] = [];
  const powers = Far('powers', {
    has: (...path: string[]) =>
      path.length === 1
        ? path[0] === 'tools' && tools !== undefined
        : tools !== undefined && path[1]! in tools,
    makeDirectory(name: string) {
      expect(name).toBe('tools');
      tools = {};
    },
    list: () => Object.keys(top),
    lookup(name: string) {
      looked.push(name);
      const value = top[name];
      if (value instanceof Error) throw value;
      return value;
    },
    move(from: string[], to: string[]) {
      moves.push(`${from.join('/')} -> ${to.join('/')}`);
      tools![to[1]!] = top[from[0]!];
      delete top[from[0]!];
    },
  });
  return { powers: powers as unknown as PowersRef, looked, moves, tools: () => tools };
};

describe('adoptIntroducedTools', () => {
  test('FaeTools move into tools/; other values, special names and reserved names stay unprobed or unmoved', async () => {
    const dir = makeDirectory(
      {
        echo: faeTool('echo'),
        clock: faeTool('clock'),
        note: 'just text',
        settings: harden({ colour: 'blue' }),
        counter: Far('Counter', { increment: () => 1 }),
        HOST: faeTool('host-like'),
        '@agent': faeTool('at-name'),
        'agent-memory': '{}',
        tools: {},
      },
      undefined,
    );
    const logs: string[] = [];
    const moved = await adoptIntroducedTools({
      powers: dir.powers,
      log: line => logs.push(line),
      reserved: new Set(['agent-memory']),
    });
    expect(moved).toEqual(['clock', 'echo']);
    expect(dir.moves.sort()).toEqual(['clock -> tools/clock', 'echo -> tools/echo']);
    expect(dir.looked.sort()).toEqual(['clock', 'counter', 'echo', 'note', 'settings']);
    expect(logs).toEqual([]);
  });

  test('an existing tools/ is kept; a name taken there is left with a reason; a failing look-up is logged and the rest go on', async () => {
    const dir = makeDirectory(
      { echo: faeTool('echo'), broken: Error('formula gone'), clock: faeTool('clock') },
      { echo: 'older echo' },
    );
    const logs: string[] = [];
    const moved = await adoptIntroducedTools({
      powers: dir.powers,
      log: line => logs.push(line),
      reserved: new Set(),
    });
    expect(moved).toEqual(['clock']);
    expect(dir.tools()).toMatchObject({ echo: 'older echo' });
    expect(logs.sort()).toEqual([
      'could not check introduced name "broken": formula gone',
      'introduced tool "echo" not moved: tools/echo already exists',
    ]);
  });

  test('a remotable that does not list its methods is not taken for a FaeTool', async () => {
    const silent = Far('Silent', {
      __getMethodNames__: () => {
        throw Error('no');
      },
    });
    const dir = makeDirectory({ silent }, {});
    expect(
      await adoptIntroducedTools({ powers: dir.powers, log: () => {}, reserved: new Set() }),
    ).toEqual([]);
    expect(dir.moves).toEqual([]);
  });
});
