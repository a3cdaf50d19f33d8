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
  expect(carriesReference(harden(Promise.resolve(1)))).toBe(true);
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

test('a formula is held as held- and the first 64 hex digits of its number, lower case; anything else is no formula id', () => {
  const f0a = `${'Ab'.repeat(64)}:${'c'.repeat(128)}`;
  expect(heldNameOf(f0a)).toBe(`held-${'ab'.repeat(32)}`);
  const newest = `${'1'.repeat(64)}:${'2'.repeat(64)}`;
  expect(heldNameOf(newest)).toBe(`held-${'1'.repeat(64)}`);
  expect(heldNameOf(`${'1'.repeat(63)}:${'2'.repeat(64)}`)).toBe(`held-${'1'.repeat(63)}`);
  // Hex digits only, the whole number: not a number that merely starts or ends with some.
  for (const odd of [
    undefined,
    42,
    '',
    ':node',
    'not-hex:node',
    `${'z'.repeat(64)}:n`,
    'zz12:node',
    '12zz:node',
  ])
    expect(heldNameOf(odd)).toBeUndefined();
});

test("an earlier worker's held names, and an earlier release's held directory, are let go at start; one that cannot be does not keep the agent from starting", async () => {
  const said: string[] = [];
  const removed: string[] = [];
  const powersWith = (options: { oldDirectory: boolean; list: () => Promise<string[]> }) =>
    Far('GuestPowers', {
      has: async (...path: string[]) => path.length === 1 || options.oldDirectory,
      list: options.list,
      remove: async (...path: string[]) => {
        if (path.at(-1) === 'held-bad') throw Error('connection lost');
        removed.push(path.join('/'));
      },
      lookup: async () => undefined,
      identify: async () => undefined,
    });
  const start = (options: { oldDirectory: boolean; list: () => Promise<string[]> }) =>
    holdWhatIsHanded({
      powers: powersWith(options),
      methods: ['has', 'list', 'remove', 'lookup', 'identify'],
      name: 'quiet',
      memory: makeHeldMemory(),
      log: line => void said.push(line),
      ensureStateDirectory: async () => {},
    });
  // As f0a46042a's setup left it: agent-state/held names a collected formula. It goes whole,
  // without being read; the names beside the memory that are no held names stay.
  await expect(
    start({ oldDirectory: true, list: async () => ['memory', 'held-good', 'held-bad'] }),
  ).resolves.toBeDefined();
  expect(removed).toEqual(['agent-state/held', 'agent-state/held-good']);
  expect(said).toEqual([
    'let go of agent-state/held/, where an earlier release held names',
    'could not let go of agent-state/held-bad: connection lost',
    'let go of 1 name(s) in agent-state/ an earlier worker held',
  ]);
  said.length = 0;
  await expect(
    start({
      oldDirectory: false,
      list: async () => {
        throw Error('connection lost');
      },
    }),
  ).resolves.toBeDefined();
  expect(said).toEqual(['could not let go of what an earlier worker held: connection lost']);
});
