/**
 * How src/daemon/held-formulas.ts holds what the worker is handed (behaviour 9.13), judged at the
 * module with a double of the guest's powers: which methods' results are held and by which name,
 * what needs no name (plain data, the state directory, the guest's special names), the method the
 * powers write with, the state directory made once when missing, a failed hold said and tried
 * again, and at start which names an earlier worker wrote are let go. agent-made-names-kept
 * judges the same through make() on both daemons.
 */
import { expect, test } from 'vitest';
import { Far } from '@endo/far';
import { heldNameOf, holdWhatIsHanded, makeHeldMemory } from '../src/daemon/held-formulas.js';

const ref = Far('Thing', {});

const HEX = 'ab'.repeat(32);
/** The formula id the double gives each path: a number of its own per path, then the node. */
const idOf = (path: string[]): string =>
  `${(HEX + path.join('').replace(/[^a-f0-9]/g, '0')).slice(-64)}:${'c'.repeat(64)}`;

/** Guest powers as the daemon's double would give them, each call noted; what a hand-over returns is a reference. */
const handingPowers = (
  options: {
    stateThere?: boolean;
    writeFails?: () => boolean;
    listed?: string[];
    result?: unknown;
    identify?: (path: string[]) => unknown;
  } = {},
) => {
  const calls: string[] = [];
  const written: [string[], unknown][] = [];
  let stateThere = options.stateThere ?? true;
  const hand =
    (method: string) =>
    async (...args: unknown[]) => {
      calls.push(`${method} ${JSON.stringify(args)}`);
      return options.result ?? ref;
    };
  const writeWith = (method: string) => async (path: string[], id: unknown) => {
    if (options.writeFails?.() === true) throw Error('connection lost');
    written.push([path, id]);
    calls.push(`${method} ${path.join('/')}`);
  };
  const powers = Far('GuestPowers', {
    has: async (...path: string[]) => (path.length === 1 ? stateThere : false),
    list: async () => options.listed ?? [],
    remove: async (...path: string[]) => void calls.push(`remove ${path.join('/')}`),
    identify: async (...path: string[]) => (options.identify ?? idOf)(path),
    lookup: hand('lookup'),
    makeDirectory: hand('makeDirectory'),
    evaluate: hand('evaluate'),
    request: hand('request'),
    send: hand('send'),
    storeIdentifier: writeWith('storeIdentifier'),
    write: writeWith('write'),
    __getMethodNames__: () => [],
  });
  const said: string[] = [];
  let made = 0;
  const start = (methods: string[], memory = makeHeldMemory()) =>
    holdWhatIsHanded({
      powers,
      methods,
      name: 'fae',
      memory,
      log: line => void said.push(line),
      ensureStateDirectory: async () => {
        made += 1;
        stateThere = true;
      },
    }) as Promise<Record<string, (...args: unknown[]) => Promise<unknown>>>;
  return { powers, start, calls, written, said, made: () => made };
};

const ALL = [
  'has',
  'list',
  'remove',
  'identify',
  'lookup',
  'makeDirectory',
  'evaluate',
  'request',
  'send',
];

test('powers without lookup or identify are given back as they are', async () => {
  const double = handingPowers();
  expect(await double.start(['lookup', 'has'])).toBe(double.powers);
  expect(await double.start(['identify', 'has'])).toBe(double.powers);
});

test('what a name hands over is held under held-<number> in agent-state, once per worker, with the method the powers have', async () => {
  const double = handingPowers();
  const memory = makeHeldMemory();
  const powers = await double.start([...ALL, 'storeIdentifier', '__getMethodNames__'], memory);
  expect(Object.keys(powers).sort()).toEqual([...ALL, 'storeIdentifier'].sort());
  await expect(powers.lookup!('notes')).resolves.toBe(ref);
  const id = idOf(['notes']);
  expect(double.written).toEqual([[['agent-state', heldNameOf(id)], id]]);
  expect(double.calls).toContain(`storeIdentifier agent-state/${heldNameOf(id)}`);
  expect([...memory.get('fae')!]).toEqual([heldNameOf(id)]);
  // Handed again: named already.
  await powers.lookup!('notes');
  expect(double.written).toHaveLength(1);
  // A path: the formula at its end.
  await powers.makeDirectory!(['work', 'a1']);
  expect(double.written[1]).toEqual([
    ['agent-state', heldNameOf(idOf(['work', 'a1']))],
    idOf(['work', 'a1']),
  ]);
  // Without storeIdentifier (f0a46042a), write.
  const older = handingPowers();
  const olderPowers = await older.start(ALL);
  expect(Object.keys(olderPowers)).not.toContain('storeIdentifier');
  await olderPowers.lookup!('notes');
  expect(older.written).toHaveLength(1);
  expect(older.calls).toContain(`write agent-state/${heldNameOf(id)}`);
});

test("evaluate's and request's result names are held; without one, or from another method, nothing is", async () => {
  const double = handingPowers();
  const powers = await double.start(ALL);
  await powers.evaluate!('MAIN', '1', [], [], 'sum');
  await powers.request!('HOST', 'a thing', 'thing');
  expect(double.written.map(([path]) => path[1])).toEqual([
    heldNameOf(idOf(['sum'])),
    heldNameOf(idOf(['thing'])),
  ]);
  await powers.evaluate!('MAIN', '1', [], []);
  await powers.request!('HOST', 'a thing');
  await powers.send!('HOST', ['hi'], [], [], 'notes');
  expect(double.written).toHaveLength(2);
  expect(double.calls.filter(call => call.startsWith('send'))).toEqual([
    'send ["HOST",["hi"],[],[],"notes"]',
  ]);
});

test('plain data, the state directory and the special names (the guest’s own) need no name', async () => {
  const plain = handingPowers({ result: harden({ text: 'words' }) });
  await (
    await plain.start(ALL)
  ).lookup!('notes');
  expect(plain.written).toEqual([]);
  const double = handingPowers();
  const powers = await double.start(ALL);
  await powers.lookup!(['agent-state', 'memory']);
  await powers.lookup!('SELF');
  await powers.lookup!('@self');
  await powers.lookup!('-x');
  expect(double.written).toEqual([]);
  // A path through a special name, and a pet name, are held.
  await powers.lookup!(['SELF', 'notes']);
  await powers.lookup!('9lives');
  expect(double.written.map(([, id]) => id)).toEqual([idOf(['SELF', 'notes']), idOf(['9lives'])]);
});

test('what is no formula id is not held', async () => {
  const double = handingPowers({ identify: () => undefined });
  const powers = await double.start(ALL);
  await expect(powers.lookup!('notes')).resolves.toBe(ref);
  expect(double.written).toEqual([]);
  expect(double.said).toEqual([]);
});

test('a hold that fails is said, the result kept, and tried again at the next hand-over', async () => {
  let fail = true;
  const double = handingPowers({ writeFails: () => fail });
  const memory = makeHeldMemory();
  const powers = await double.start(ALL, memory);
  await expect(powers.lookup!(['work', 'notes'])).resolves.toBe(ref);
  expect(double.said).toEqual(['could not hold work/notes against collection: connection lost']);
  expect(memory.get('fae')?.size).toBe(0);
  fail = false;
  await powers.lookup!('notes');
  await powers.lookup!(['work', 'notes']);
  expect(double.said).toHaveLength(1);
  expect(double.written.map(([, id]) => id)).toEqual([idOf(['notes']), idOf(['work', 'notes'])]);
});

test('the state directory is made before the first hold when it is missing, and once', async () => {
  const double = handingPowers({ stateThere: false, listed: ['held-old'] });
  const powers = await double.start(ALL);
  // Missing: nothing an earlier worker held to let go of.
  expect(double.calls.filter(call => call.startsWith('remove'))).toEqual([]);
  expect(double.made()).toBe(0);
  await powers.lookup!('a');
  await powers.lookup!('b');
  expect(double.made()).toBe(1);
  expect(double.written).toHaveLength(2);
  const there = handingPowers({ stateThere: true });
  await (
    await there.start(ALL)
  ).lookup!('a');
  expect(there.made()).toBe(0);
});

test('at start, the names this worker wrote stay; the others an earlier worker wrote go, quietly when none', async () => {
  const mine = heldNameOf(idOf(['notes']))!;
  const double = handingPowers({ listed: [mine, 'held-old', 'memory'] });
  const memory = makeHeldMemory();
  memory.set('fae', new Set([mine]));
  await double.start(ALL, memory);
  expect(double.calls.filter(call => call.startsWith('remove'))).toEqual([
    'remove agent-state/held-old',
  ]);
  expect(double.said).toEqual(['let go of 1 name(s) in agent-state/ an earlier worker held']);
  // Another agent's memory in the same worker is not this one's.
  const other = handingPowers({ listed: [mine] });
  const shared = makeHeldMemory();
  shared.set('lal', new Set([mine]));
  await other.start(ALL, shared);
  expect(other.calls).toEqual([`remove agent-state/${mine}`]);
  const quiet = handingPowers({ listed: ['memory'] });
  await quiet.start(ALL);
  expect(quiet.said).toEqual([]);
  expect(quiet.calls).toEqual([]);
});
