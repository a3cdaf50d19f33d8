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
import type { FollowNames, SenderNaming } from '../src/mail/sender-names.js';
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

/** A signal the test aborts, which says when the follower stops listening to it (its follow ended). */
const makeSignal = () => {
  const listeners = new Set<() => void>();
  const removed: string[] = [];
  let aborted = false;
  const signal = {
    get aborted() {
      return aborted;
    },
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (type: string, listener: () => void) => {
      removed.push(type);
      listeners.delete(listener);
    },
  } as unknown as AbortSignal;
  return {
    signal,
    abort: () => {
      aborted = true;
      for (const listener of [...listeners]) listener();
      listeners.clear();
    },
    /** The event names the follower stopped listening to. */
    removed,
  };
};

/** Powers whose look-ups the test answers one by one, per id. */
const makeSlowPowers = () => {
  const asked: string[] = [];
  const pending: { id: string; answer: (names: unknown) => void; fail: (e: Error) => void }[] = [];
  const powers = Far('powers', {
    reverseIdentify: (id: string) => {
      asked.push(id);
      return new Promise((resolve, reject) => {
        pending.push({ id, answer: resolve, fail: reject });
      });
    },
  });
  /** Resolves once a look-up of `id` is under way; gives its answerers. */
  const lookUp = async (id: string) => {
    await expect.poll(() => pending.some(each => each.id === id)).toBe(true);
    const index = pending.findIndex(each => each.id === id);
    return pending.splice(index, 1)[0]!;
  };
  return { powers, asked, lookUp };
};

/** A naming whose name-change stream the test opens, steps and ends. */
const makeNaming = (overrides: Partial<SenderNaming> = {}) => {
  let opened = 0;
  let returned = 0;
  let open: (
    changes: Awaited<ReturnType<NonNullable<SenderNaming['followNameChanges']>>>,
  ) => void = () => {};
  let answer: (step: IteratorResult<unknown>) => void = () => {};
  let nextCalled: () => void = () => {};
  let waiting = new Promise<void>(resolve => (nextCalled = resolve));
  const changes = {
    next: () =>
      new Promise<IteratorResult<unknown>>(resolve => {
        answer = resolve;
        nextCalled();
      }),
    return: async () => {
      returned += 1;
      answer({ done: true, value: undefined });
      return { done: true, value: undefined };
    },
  };
  const naming: SenderNaming = {
    names: { host: '@host', self: '@self' },
    idOf: (id: unknown) => (typeof id === 'string' ? id.replace(/^endo:\/\//, '') : undefined),
    followNameChanges: () => {
      opened += 1;
      return new Promise(resolve => {
        open = resolve;
      });
    },
    ...overrides,
  };
  return {
    naming,
    opened: () => opened,
    returned: () => returned,
    /** The stream comes (the follower may not take it). */
    deliver: () => open(changes),
    /** The stream comes; resolves once the follower waits for its first change. */
    open: async () => {
      open(changes);
      await waiting;
    },
    step: async (value: unknown) => {
      waiting = new Promise<void>(resolve => (nextCalled = resolve));
      answer({ done: false, value });
      await waiting;
    },
    end: () => answer({ done: true, value: undefined }),
  };
};

describe('unnamed senders, at the edges', () => {
  const node = 'a'.repeat(64);
  test('a number of sixteen digits or fewer is no formula number: shown whole', () => {
    expect(unnamedSender('1'.repeat(16), node)).toBe('1'.repeat(16));
    expect(unnamedSender('1'.repeat(17), node)).toBe('unnamed 11111111');
  });

  test('a formula number without a node is shown short, never as another daemon', () => {
    expect(unnamedSender('9'.repeat(64), node)).toBe('unnamed 99999999');
  });

  test("the agent's own id tells which senders are on another daemon", async () => {
    const local = `${'1'.repeat(64)}:${node}`;
    const remote = `${'2'.repeat(64)}:${'b'.repeat(64)}`;
    const { powers } = makePowers({});
    const nameOf = makeSenderNames(powers, {
      names: { host: '@host', self: '@self' },
      idOf: id => String(id),
      selfId: `${'0'.repeat(64)}:${node}`,
    });
    expect(await nameOf(local)).toBe('unnamed 11111111');
    expect(await nameOf(remote)).toBe('unnamed 22222222 on another daemon (node bbbbbbbb)');
  });
});

describe("the daemon's special names", () => {
  test('HOST is preferred wherever it is listed; with a naming, its own host name is', async () => {
    const { powers } = makePowers({ a: ['boss', 'HOST'], b: ['boss', '@host'], c: ['HOST'] });
    expect(await makeSenderNames(powers)('a')).toBe('HOST');
    const named = makeSenderNames(powers, {
      names: { host: '@host', self: '@self' },
      idOf: id => String(id),
    });
    expect(await named('b')).toBe('@host');
    expect(await named('a')).toBe('boss');
  });

  test('a sender written as a locator is looked up by the formula id the naming reads in it, or as given', async () => {
    const { powers, asked } = makePowers({ x1: ['alice'], 'not-a-locator': ['bob'] });
    const nameOf = makeSenderNames(powers, {
      names: { host: '@host', self: '@self' },
      idOf: id => (typeof id === 'string' && id.startsWith('endo://') ? id.slice(7) : undefined),
    });
    expect(await nameOf('endo://x1')).toBe('alice');
    expect(await nameOf('not-a-locator')).toBe('bob');
    expect(asked).toEqual(['x1', 'not-a-locator']);
  });
});

describe('names kept while following, at the edges', () => {
  const follow = () => {
    const control = makeSignal();
    const logs: string[] = [];
    return {
      ...control,
      logs,
      options: { signal: control.signal, log: (line: string) => logs.push(line) },
    };
  };

  test('512 senders are kept; the least recently named is asked again', async () => {
    const names: Record<string, string[]> = {};
    for (let n = 0; n <= 512; n += 1) names[`s${n}`] = [`name${n}`];
    const daemon = makeFollowedPowers(names);
    const nameOf = makeSenderNames(daemon.powers, undefined, follow().options);
    await daemon.following();
    for (let n = 0; n <= 512; n += 1) await nameOf(`s${n}`);
    expect(daemon.asked).toHaveLength(513);
    expect(await nameOf('s1')).toBe('name1');
    expect(daemon.asked).toHaveLength(513);
    expect(await nameOf('s0')).toBe('name0');
    expect(daemon.asked).toHaveLength(514);
  });

  test('a sender with no name yet, or whose look-up failed, is asked again next time', async () => {
    const names: Record<string, string[]> = { a: [] };
    const daemon = makeFollowedPowers(names);
    const nameOf = makeSenderNames(daemon.powers, undefined, follow().options);
    await daemon.following();
    expect(await nameOf('a')).toBe('a');
    names.a = ['alice'];
    expect(await nameOf('a')).toBe('alice');
    expect(await nameOf('a')).toBe('alice');
    expect(daemon.asked).toEqual(['a', 'a']);
  });

  test('a failed look-up while following is asked again', async () => {
    const slow = makeSlowPowers();
    const naming = makeNaming();
    const nameOf = makeSenderNames(slow.powers, naming.naming, follow().options);
    await naming.open();
    const first = nameOf('abc');
    (await slow.lookUp('abc')).fail(Error('daemon busy'));
    expect(await first).toBe('abc');
    const second = nameOf('abc');
    (await slow.lookUp('abc')).answer(['carol']);
    expect(await second).toBe('carol');
    expect(await nameOf('abc')).toBe('carol');
    expect(slow.asked).toEqual(['abc', 'abc']);
  });

  test('a look-up under way when a name changes is not kept: its answer may be from before the change', async () => {
    const slow = makeSlowPowers();
    const naming = makeNaming();
    const nameOf = makeSenderNames(slow.powers, naming.naming, follow().options);
    await naming.open();
    const first = nameOf('a');
    const lookUp = await slow.lookUp('a');
    await naming.step({ remove: 'alice' });
    lookUp.answer(['alice']);
    expect(await first).toBe('alice');
    const second = nameOf('a');
    (await slow.lookUp('a')).answer([]);
    expect(await second).toBe('a');
  });

  test("a look-up that fails after a newer one took its place leaves the newer one's name kept", async () => {
    const slow = makeSlowPowers();
    const naming = makeNaming();
    const nameOf = makeSenderNames(slow.powers, naming.naming, follow().options);
    await naming.open();
    const old = nameOf('a');
    const oldLookUp = await slow.lookUp('a');
    await naming.step({ remove: 'someone' });
    const newer = nameOf('a');
    (await slow.lookUp('a')).answer(['alice']);
    expect(await newer).toBe('alice');
    oldLookUp.fail(Error('daemon busy'));
    expect(await old).toBe('a');
    expect(await nameOf('a')).toBe('alice');
    expect(slow.asked).toEqual(['a', 'a']);
  });

  test.each([
    ['a name added without an id', { add: 'carol' }],
    ['an id without its node', { add: 'carol', value: { number: 'n3' } }],
    ['an id without its number', { add: 'carol', value: { node: 'd3' } }],
  ])('%s forgets every kept name, and following goes on', async (_what, change) => {
    const names: Record<string, string[]> = { b: ['bob'] };
    const daemon = makeFollowedPowers(names);
    const { options, logs } = follow();
    const nameOf = makeSenderNames(daemon.powers, undefined, options);
    await daemon.following();
    await nameOf('b');
    await daemon.step({ done: false, value: change });
    await nameOf('b');
    await nameOf('b');
    expect(daemon.asked).toEqual(['b', 'b']);
    expect(logs).toEqual([]);
  });

  test("a naming without its own follower follows the powers' name changes", async () => {
    const daemon = makeFollowedPowers({ a: ['alice'] });
    const nameOf = makeSenderNames(
      daemon.powers,
      { names: { host: '@host', self: '@self' }, idOf: id => String(id) },
      follow().options,
    );
    await daemon.following();
    await nameOf('a');
    await nameOf('a');
    expect(daemon.asked).toEqual(['a']);
  });
});

describe('following ends', () => {
  const follow = () => {
    const control = makeSignal();
    const logs: string[] = [];
    return {
      ...control,
      logs,
      options: { signal: control.signal, log: (line: string) => logs.push(line) },
    };
  };

  test('cancelled before it began: the directory is never asked to follow', async () => {
    const naming = makeNaming();
    const { powers } = makePowers({});
    const { options, abort } = follow();
    abort();
    makeSenderNames(powers, naming.naming, options);
    expect(naming.opened()).toBe(0);
  });

  test('cancelled while the stream was being opened: it is closed once it comes, and no name is kept', async () => {
    const naming = makeNaming();
    const { powers, asked } = makePowers({ a: ['alice'] });
    const control = follow();
    const nameOf = makeSenderNames(powers, naming.naming, control.options);
    expect(naming.opened()).toBe(1);
    control.abort();
    naming.deliver();
    await expect.poll(() => naming.returned()).toBe(1);
    await nameOf('a');
    await nameOf('a');
    expect(asked).toEqual(['a', 'a']);
    expect(control.logs).toEqual([]);
  });

  test('cancelled while following: the stream is closed, names are asked each time, nothing is logged', async () => {
    const naming = makeNaming();
    const { powers, asked } = makePowers({ a: ['alice'] });
    const control = follow();
    const nameOf = makeSenderNames(powers, naming.naming, control.options);
    await naming.open();
    await nameOf('a');
    await nameOf('a');
    expect(asked).toEqual(['a']);
    control.abort();
    expect(naming.returned()).toBe(1);
    await nameOf('a');
    await nameOf('a');
    expect(asked).toEqual(['a', 'a', 'a']);
    // The stream, closed, ends: the follower stops listening, and says nothing.
    await expect.poll(() => control.removed).toEqual(['abort']);
    expect(control.logs).toEqual([]);
  });

  test('a stream the daemon ended is not closed again when the agent is later cancelled', async () => {
    const naming = makeNaming();
    const { powers } = makePowers({});
    const control = follow();
    makeSenderNames(powers, naming.naming, control.options);
    await naming.open();
    naming.end();
    await expect.poll(() => control.removed).toEqual(['abort']);
    control.abort();
    expect(naming.returned()).toBe(0);
  });

  test('the listing race is followed again at most three times in all, then given up and logged', async () => {
    const naming = makeNaming();
    const { powers } = makePowers({});
    const control = follow();
    makeSenderNames(
      powers,
      {
        ...naming.naming,
        followNameChanges: async () => {
          naming.naming.followNameChanges!(undefined).catch(() => {});
          throw Error('Invalid formula identifier "[undefined]"');
        },
      },
      control.options,
    );
    await expect
      .poll(() => control.logs)
      .toEqual([
        'could not follow name changes (Invalid formula identifier "[undefined]"): senders are named afresh each time',
      ]);
    expect(naming.opened()).toBe(3);
  });

  test('another failure is not tried again', async () => {
    let opened = 0;
    const { powers } = makePowers({});
    const control = follow();
    makeSenderNames(
      powers,
      {
        names: { host: '@host', self: '@self' },
        idOf: id => String(id),
        followNameChanges: async () => {
          opened += 1;
          throw Error('no such method');
        },
      },
      control.options,
    );
    await expect.poll(() => control.logs).toHaveLength(1);
    expect(opened).toBe(1);
  });
});
