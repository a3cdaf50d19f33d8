/**
 * How senders are named for the model: by the guest's own pet name for
 * them (HOST first, never SELF when another name exists), a short form of
 * the id when there is none (asked again next time, as the host may
 * introduce one), and a failing look-up never fails the message. Names are
 * kept only while the directory's changes are followed, and any change
 * forgets them: whom the policy trusts is who the name is now.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import type { FollowNames } from '../src/mail/sender-names.js';
import { makeSenderNames, unnamedSender } from '../src/mail/sender-names.js';

const makePowers = (names: Record<string, unknown>, failing = new Set<string>()) => {
  const asked: string[] = [];
  const powers = Far('powers', {
    reverseIdentify(id: string) {
      asked.push(id);
      if (failing.has(id)) throw Error('daemon busy');
      return names[id] ?? [];
    },
  });
  return { powers, asked };
};

const LONG_ID = 'f'.repeat(128);

describe('makeSenderNames', () => {
  test('HOST wins; otherwise a pet name over SELF; SELF only when it is the only name', async () => {
    const { powers } = makePowers({
      a: ['SELF', 'HOST', 'boss'],
      b: ['SELF', 'alice'],
      c: ['SELF'],
    });
    const nameOf = makeSenderNames(powers);
    expect(await nameOf('a')).toBe('HOST');
    expect(await nameOf('b')).toBe('alice');
    expect(await nameOf('c')).toBe('SELF');
  });

  test('without following the directory, every look-up asks the daemon again', async () => {
    const { powers, asked } = makePowers({ a: ['alice'] });
    const nameOf = makeSenderNames(powers);
    await nameOf('a');
    await nameOf('a');
    expect(asked).toEqual(['a', 'a']);
  });

  test('without a name a long id is shortened, and asked for again next time', async () => {
    const names: Record<string, unknown> = { [LONG_ID]: [] };
    const { powers, asked } = makePowers(names);
    const nameOf = makeSenderNames(powers);
    expect(await nameOf(LONG_ID)).toBe(`unnamed ${'f'.repeat(8)}`);
    names[LONG_ID] = ['bob'];
    expect(await nameOf(LONG_ID)).toBe('bob');
    expect(asked).toEqual([LONG_ID, LONG_ID]);
  });

  test('an unnamed sender is the first eight digits of its formula number, and, on another node, which daemon', () => {
    const here = `${'1'.repeat(64)}:${'a'.repeat(64)}`;
    const local = `${'9a7fd267'.repeat(8)}:${'a'.repeat(64)}`;
    const remote = `${'9a7fd267'.repeat(8)}:${'3c1d2e4f'.repeat(8)}`;
    const selfNode = here.split(':')[1];
    expect(unnamedSender(local, selfNode)).toBe('unnamed 9a7fd267');
    expect(unnamedSender(remote, selfNode)).toBe(
      'unnamed 9a7fd267 on another daemon (node 3c1d2e4f)',
    );
    // Without its own id the agent cannot tell, and does not guess.
    expect(unnamedSender(remote, undefined)).toBe('unnamed 9a7fd267');
  });

  test('a failing look-up gives the short id and is tried again; a short id is shown whole', async () => {
    const failing = new Set(['abc']);
    const { powers, asked } = makePowers({ abc: ['carol'] }, failing);
    const nameOf = makeSenderNames(powers);
    expect(await nameOf('abc')).toBe('abc');
    failing.clear();
    expect(await nameOf('abc')).toBe('carol');
    expect(asked).toEqual(['abc', 'abc']);
  });

  test('a look-up that answers something other than a list of names, or no id at all', async () => {
    const { powers } = makePowers({ x: 'HOST', y: [7, 'dave'] });
    const nameOf = makeSenderNames(powers);
    expect(await nameOf('x')).toBe('x');
    expect(await nameOf('y')).toBe('dave');
    expect(await nameOf(undefined)).toBe('unknown sender');
    expect(await nameOf('')).toBe('unknown sender');
  });
});

/** Powers whose directory changes the test makes, one at a time. */
const makeFollowedPowers = (names: Record<string, string[]>, failFollowing = false) => {
  const asked: string[] = [];
  let nextCalled: () => void = () => {};
  let waiting = new Promise<void>(resolve => (nextCalled = resolve));
  let answer: ((step: IteratorResult<unknown>) => void) | undefined;
  let returned = 0;
  const changes = Far('name changes', {
    next: () => {
      nextCalled();
      return new Promise<IteratorResult<unknown>>(resolve => (answer = resolve));
    },
    return: () => {
      returned += 1;
      return { done: true, value: undefined };
    },
  });
  const powers = Far('powers', {
    reverseIdentify(id: string) {
      asked.push(id);
      return names[id] ?? [];
    },
    followNameChanges() {
      if (failFollowing) throw Error('no such method');
      return changes;
    },
  });
  /** The next change (or the end) reaches the agent; resolves once it waits for the one after. */
  const step = async (result: IteratorResult<unknown>) => {
    waiting = new Promise<void>(resolve => (nextCalled = resolve));
    answer!(result);
    if (result.done !== true) await waiting;
  };
  return {
    powers,
    asked,
    /** Resolves once the agent follows the changes (its first next()). */
    following: () => waiting,
    step,
    end: () => step({ done: true, value: undefined }),
    returned: () => returned,
  };
};

describe('makeSenderNames following the directory', () => {
  const follow = () => {
    const controller = new AbortController();
    const logs: string[] = [];
    const options: FollowNames = { signal: controller.signal, log: line => logs.push(line) };
    return { controller, logs, options };
  };

  test('a known name is asked for once while following; a change to that name makes it asked again', async () => {
    const names: Record<string, string[]> = { a: ['alice'], b: ['bob'] };
    const daemon = makeFollowedPowers(names);
    const { controller, options, logs } = follow();
    const nameOf = makeSenderNames(daemon.powers, undefined, options);
    await daemon.following();
    expect(await nameOf('a')).toBe('alice');
    expect(await nameOf('a')).toBe('alice');
    expect(await nameOf('b')).toBe('bob');
    expect(daemon.asked).toEqual(['a', 'b']);
    // The agent's own writes touch no sender's name: nothing is asked again.
    await daemon.step({ done: false, value: { add: 'memory', value: { number: 'm', node: 'n' } } });
    await daemon.step({ done: false, value: { remove: 'memory' } });
    await nameOf('a');
    await nameOf('b');
    expect(daemon.asked).toEqual(['a', 'b']);
    // The HOST removes alice's name: her next message is named afresh; bob keeps his.
    names.a = [];
    await daemon.step({ done: false, value: { remove: 'alice' } });
    expect(await nameOf('a')).toBe('a');
    expect(await nameOf('b')).toBe('bob');
    expect(daemon.asked).toEqual(['a', 'b', 'a']);
    controller.abort();
    await expect.poll(() => daemon.returned()).toBe(1);
    expect(logs).toEqual([]);
  });

  test('a name re-pointed, or a new name for a kept sender, makes both senders asked again', async () => {
    const names: Record<string, string[]> = { 'n1:d1': ['alice'], 'n2:d2': ['bob'] };
    const daemon = makeFollowedPowers(names);
    const { options } = follow();
    const nameOf = makeSenderNames(daemon.powers, undefined, options);
    await daemon.following();
    await nameOf('n1:d1');
    await nameOf('n2:d2');
    // "alice" now names bob's formula: alice's kept name and bob's both go.
    names['n1:d1'] = [];
    names['n2:d2'] = ['alice', 'bob'];
    await daemon.step({
      done: false,
      value: { add: 'alice', value: { number: 'n2', node: 'd2' } },
    });
    expect(await nameOf('n1:d1')).toBe('n1:d1');
    expect(await nameOf('n2:d2')).toBe('alice');
    expect(daemon.asked).toEqual(['n1:d1', 'n2:d2', 'n1:d1', 'n2:d2']);
    // A change the agent cannot read forgets every kept name.
    await daemon.step({ done: false, value: 'garbled' });
    await nameOf('n2:d2');
    expect(daemon.asked).toHaveLength(5);
    await daemon.step({ done: false, value: { add: 'carol', value: 'not a record' } });
    await nameOf('n2:d2');
    expect(daemon.asked).toHaveLength(6);
  });

  test("the newest daemon's listing race (a name removed while it lists its names) is followed again, not given up (issue 35)", async () => {
    const daemon = makeFollowedPowers({ a: ['alice'] });
    const { options, logs } = follow();
    let calls = 0;
    const naming = {
      names: { host: '@host', self: '@self' },
      idOf: (id: unknown) => String(id),
      followNameChanges: async () => {
        calls += 1;
        if (calls === 1)
          return {
            next: () => Promise.reject(Error('Invalid formula identifier "[undefined]"')),
            return: async () => ({ done: true, value: undefined }),
          };
        const changes = daemon.powers.followNameChanges();
        return { next: () => changes.next(), return: async () => changes.return() };
      },
    };
    const nameOf = makeSenderNames(daemon.powers, naming, options);
    await daemon.following();
    expect(calls).toBe(2);
    expect(await nameOf('a')).toBe('alice');
    expect(await nameOf('a')).toBe('alice');
    // Kept while following: asked once.
    expect(daemon.asked).toEqual(['a']);
    expect(logs).toEqual([]);
  });

  test('once following ends, every look-up asks again, and the log says so', async () => {
    const daemon = makeFollowedPowers({ a: ['alice'] });
    const { options, logs } = follow();
    const nameOf = makeSenderNames(daemon.powers, undefined, options);
    await daemon.following();
    await nameOf('a');
    await nameOf('a');
    expect(daemon.asked).toEqual(['a']);
    await daemon.end();
    await expect
      .poll(() => logs)
      .toEqual(['stopped following name changes: senders are named afresh each time']);
    await nameOf('a');
    await nameOf('a');
    expect(daemon.asked).toEqual(['a', 'a', 'a']);
  });

  test('a daemon that cannot follow name changes: names are asked each time, and the log says why', async () => {
    const daemon = makeFollowedPowers({ a: ['alice'] }, true);
    const { options, logs } = follow();
    const nameOf = makeSenderNames(daemon.powers, undefined, options);
    await expect
      .poll(() => logs)
      .toEqual([
        'could not follow name changes (no such method): senders are named afresh each time',
      ]);
    await nameOf('a');
    await nameOf('a');
    expect(daemon.asked).toEqual(['a', 'a']);
  });

  test('cancelled before following began: it never follows, and logs nothing', async () => {
    const daemon = makeFollowedPowers({ a: ['alice'] });
    const { controller, options, logs } = follow();
    controller.abort();
    const nameOf = makeSenderNames(daemon.powers, undefined, options);
    await nameOf('a');
    await nameOf('a');
    expect(daemon.asked).toEqual(['a', 'a']);
    expect(logs).toEqual([]);
  });
});
