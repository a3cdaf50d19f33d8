// A helper's guest powers (src/helpers/narrowed-powers.ts, docs/behaviour.md 7.9): only the paths
// it was given and what lies under them reach the agent's powers; any other path is refused by
// name before the agent's powers hear of it, and every mail power refuses.
import { describe, expect, test } from 'vitest';
import { narrowedPowers } from '../src/helpers/narrowed-powers.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

/** The agent's powers as a double that answers every call and records it. */
const makeParent = () => {
  const calls: [string, unknown[]][] = [];
  const answer =
    (method: string) =>
    (...args: unknown[]) => {
      calls.push([method, args]);
      return `${method} answered`;
    };
  const methods = [
    'help',
    'has',
    'identify',
    'list',
    'listIdentifiers',
    'lookup',
    'remove',
    'move',
    'copy',
    'makeDirectory',
    'storeValue',
  ];
  const parent = Object.fromEntries(methods.map(method => [method, answer(method)]));
  return { parent: parent as unknown as PowersRef, calls };
};

const given = [['notes'], ['projects', 'lal']];

describe("a helper's powers reach only what it was given", () => {
  test('a path given, or under one given, goes to the agent; nothing else does', async () => {
    const { parent, calls } = makeParent();
    const powers = narrowedPowers(parent, given);
    expect(await powers.has('notes')).toBe('has answered');
    expect(await powers.has('projects', 'lal', 'todo')).toBe('has answered');
    // Not given: false, and the agent's powers are not asked.
    expect(await powers.has('projects')).toBe(false);
    expect(await powers.has('projects', 'endo')).toBe(false);
    expect(await powers.has('vault')).toBe(false);
    expect(await powers.has()).toBe(false);
    expect(calls).toEqual([
      ['has', ['notes']],
      ['has', ['projects', 'lal', 'todo']],
    ]);
  });

  test('each call on a path checks it, with the names it was given in the refusal', async () => {
    const { parent, calls } = makeParent();
    const powers = narrowedPowers(parent, given);
    const refused =
      /"vault" is not among the pet names this helper was given \(notes, projects\/lal\)/;
    expect(() => powers.identify('vault')).toThrow(refused);
    expect(() => powers.list('vault')).toThrow(refused);
    expect(() => powers.listIdentifiers('vault')).toThrow(refused);
    expect(() => powers.lookup('vault')).toThrow(refused);
    expect(() => powers.remove('vault')).toThrow(refused);
    expect(() => powers.makeDirectory('vault')).toThrow(refused);
    expect(() => powers.storeValue(1, 'vault')).toThrow(refused);
    expect(() => powers.move(['notes'], ['vault'])).toThrow(refused);
    expect(() => powers.move(['vault'], ['notes'])).toThrow(refused);
    expect(() => powers.copy(['notes'], ['vault'])).toThrow(refused);
    expect(() => powers.copy(['vault'], ['notes'])).toThrow(refused);
    expect(() => powers.lookup('projects/endo')).toThrow(/"projects\/endo" is not among/);
    expect(calls).toEqual([]);
    await powers.identify('notes');
    await powers.list('projects', 'lal');
    await powers.listIdentifiers('notes');
    await powers.lookup('projects/lal/todo');
    await powers.lookup(['notes', 'a']);
    await powers.remove('notes', 'old');
    await powers.makeDirectory('projects/lal/new');
    await powers.storeValue(7, ['notes', 'seven']);
    await powers.move(['notes', 'a'], ['projects', 'lal', 'a']);
    await powers.copy(['projects', 'lal', 'b'], ['notes', 'b']);
    expect(calls).toEqual([
      ['identify', ['notes']],
      ['list', ['projects', 'lal']],
      ['listIdentifiers', ['notes']],
      ['lookup', [['projects', 'lal', 'todo']]],
      ['lookup', [['notes', 'a']]],
      ['remove', ['notes', 'old']],
      ['makeDirectory', [['projects', 'lal', 'new']]],
      ['storeValue', [7, ['notes', 'seven']]],
      [
        'move',
        [
          ['notes', 'a'],
          ['projects', 'lal', 'a'],
        ],
      ],
      [
        'copy',
        [
          ['projects', 'lal', 'b'],
          ['notes', 'b'],
        ],
      ],
    ]);
  });

  test('the top of its directory is what it was given; help says so', async () => {
    const { parent, calls } = makeParent();
    const powers = narrowedPowers(parent, given);
    expect(powers.list()).toEqual(['notes', 'projects/lal']);
    expect(powers.help()).toBe("A helper's pet names: notes, projects/lal.");
    expect(await powers.help('lookup')).toBe('help answered');
    expect(calls).toEqual([['help', ['lookup']]]);
    const none = narrowedPowers(parent, []);
    expect(none.list()).toEqual([]);
    expect(none.help()).toBe("A helper's pet names: none.");
    expect(() => none.lookup('notes')).toThrow(/given \(none\)/);
  });

  test.each([
    'reverseIdentify',
    'listMessages',
    'followMessages',
    'send',
    'reply',
    'dismiss',
    'adopt',
    'request',
    'resolve',
    'reject',
    'evaluate',
  ] as const)('%s refuses: a helper mails no one', method => {
    const { parent, calls } = makeParent();
    const powers = narrowedPowers(parent, given) as unknown as Record<string, () => unknown>;
    expect(() => powers[method]!()).toThrow(
      `${method}: a helper mails no one; it hands back its result`,
    );
    expect(calls).toEqual([]);
  });
});
