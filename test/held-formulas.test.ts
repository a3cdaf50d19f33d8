/**
 * The two decisions of src/daemon/held-formulas.ts (behaviour 9.13): which
 * results carry a reference the worker then holds, and the name a formula
 * is held under.
 */
import { expect, test } from 'vitest';
import { Far } from '@endo/far';
import { makeTagged } from '@endo/pass-style';
import {
  carriesReference,
  heldNameOf,
  holdWhatIsHanded,
  makeHeldMemory,
} from '../src/daemon/held-formulas.js';

const ref = Far('Thing', {});

test('a reference anywhere in a result is carried; plain data is not', () => {
  expect(carriesReference(ref)).toBe(true);
  expect(carriesReference(Promise.resolve(1))).toBe(true);
  expect(carriesReference(harden([1, [2, ref]]))).toBe(true);
  expect(carriesReference(harden({ a: 'x', b: { c: ref } }))).toBe(true);
  expect(carriesReference(makeTagged('box', harden({ inner: ref })))).toBe(true);
  for (const plain of ['words', 7, 7n, true, null, undefined, harden([1, 'a']), harden({ a: [1] })])
    expect(carriesReference(plain)).toBe(false);
  expect(carriesReference(makeTagged('box', harden({ inner: 1 })))).toBe(false);
  expect(carriesReference(harden(Error('no')))).toBe(false);
  // What is not passable as it stands (not hardened) is held, to be safe.
  expect(carriesReference({ loose: 1 })).toBe(true);
});

test('a formula is held under the first 64 hex digits of its number, lower case; anything else is no formula id', () => {
  const f0a = `${'Ab'.repeat(64)}:${'c'.repeat(128)}`;
  expect(heldNameOf(f0a)).toBe('ab'.repeat(32));
  const newest = `${'1'.repeat(64)}:${'2'.repeat(64)}`;
  expect(heldNameOf(newest)).toBe('1'.repeat(64));
  expect(heldNameOf(`${'1'.repeat(63)}:${'2'.repeat(64)}`)).toBe('1'.repeat(63));
  for (const odd of [undefined, 42, '', ':node', 'not-hex:node', `${'z'.repeat(64)}:n`])
    expect(heldNameOf(odd)).toBeUndefined();
});

test("an earlier worker's held names that cannot be read or let go do not keep the agent from starting", async () => {
  // As at f0a46042a after a restart: the held directory's formula is gone ("No reference exists").
  const said: string[] = [];
  const removed: string[] = [];
  const powersWith = (list: () => Promise<string[]>) =>
    Far('GuestPowers', {
      has: async () => true,
      list,
      remove: async (...path: string[]) => {
        if (path.at(-1) === 'bad') throw Error('No reference exists at path formulas/4c.json');
        removed.push(path.join('/'));
      },
      lookup: async () => undefined,
      identify: async () => undefined,
    });
  const start = (list: () => Promise<string[]>) =>
    holdWhatIsHanded({
      powers: powersWith(list),
      methods: ['has', 'list', 'remove', 'lookup', 'identify'],
      name: 'quiet',
      memory: makeHeldMemory(),
      log: line => void said.push(line),
      ensureStateDirectory: async () => {},
    });
  await expect(
    start(async () => {
      throw Error('No reference exists at path formulas/4c.json');
    }),
  ).resolves.toBeDefined();
  expect(said).toEqual([
    'could not read agent-state/held/ at start: No reference exists at path formulas/4c.json',
  ]);
  said.length = 0;
  // One name that cannot be let go: the others still go, and it is said.
  await expect(start(async () => ['bad', 'good'])).resolves.toBeDefined();
  expect(removed).toEqual(['agent-state/held/good']);
  expect(said).toEqual([
    'could not let go of agent-state/held/bad: No reference exists at path formulas/4c.json',
    'let go of 1 name(s) in agent-state/held/ an earlier worker held',
  ]);
});
