/**
 * When the agent reads tools/ (src/serving/tools-freshness.ts), judged alone
 * with a registry double and a name-change stream the test drives: an
 * unchanged, followed tools/ costs no read before a turn; any change that is
 * news (a name added or re-pointed, a known name removed), a tool source, or
 * a tools/ that cannot be followed makes it read before the next turn; a
 * collected tools/ is made again and followed anew (docs/behaviour.md,
 * behaviour 6).
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import type { MailStream } from '../src/daemon/daemon-adapter.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import type { ToolRegistry } from '../src/agent-tools/fae-tool-registry.js';
import { makeToolsFreshness } from '../src/serving/tools-freshness.js';

/**
 * A name-change stream whose steps the test gives, one at a time. Closed, its
 * pending step fails, as a daemon's does; or (`late`) a change already on its
 * way still comes.
 */
const makeStream = (late = false) => {
  let answer: ((step: IteratorResult<unknown>) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  let asked: () => void = () => {};
  let nextAsked = new Promise<void>(resolve => (asked = resolve));
  let returned = 0;
  const stream: MailStream = {
    next: () =>
      new Promise<IteratorResult<unknown>>((resolve, reject) => {
        answer = resolve;
        fail = reject;
        asked();
      }),
    return: async () => {
      returned += 1;
      if (!late) fail?.(Error('closed'));
      return { done: true, value: undefined };
    },
  };
  return {
    stream,
    /** Resolves once the follower waits for a step. */
    waiting: () => nextAsked,
    /** Gives a change and resolves once the follower has read it (it waits for the next). */
    change: async (value: unknown) => {
      nextAsked = new Promise<void>(resolve => (asked = resolve));
      answer!({ done: false, value });
      await nextAsked;
    },
    /** Gives a change without waiting for the follower to read it. */
    give: (value: unknown) => answer!({ done: false, value }),
    end: () => answer!({ done: true, value: undefined }),
    break: (error: Error) => fail!(error),
    returned: () => returned,
  };
};

type Stream = ReturnType<typeof makeStream>;

const setUp = (
  options: {
    known?: Record<string, string>;
    sources?: boolean;
    refreshes?: ('read' | 'collected' | Error)[];
    lookupFails?: boolean;
    late?: boolean;
  } = {},
) => {
  const known = { ...options.known };
  const answers = [...(options.refreshes ?? [])];
  let refreshed = 0;
  const tools = {
    refresh: async () => {
      refreshed += 1;
      const next = answers.shift() ?? 'read';
      if (next instanceof Error) throw next;
      return next;
    },
    knownId: (petName: string) => known[petName],
    hasSources: () => options.sources === true,
  } as unknown as ToolRegistry;
  const looked: unknown[] = [];
  const powers = Far('powers', {
    lookup: (name: unknown) => {
      looked.push(name);
      if (options.lookupFails === true) throw Error('no tools/ here');
      return Far('tools directory', {});
    },
  }) as unknown as PowersRef;
  const streams: Stream[] = [];
  let remade = 0;
  const logs: string[] = [];
  const freshness = makeToolsFreshness({
    powers,
    tools,
    log: line => logs.push(line),
    followNameChanges: async () => {
      const made = makeStream(options.late);
      streams.push(made);
      return made.stream;
    },
    remake: async () => {
      remade += 1;
    },
  });
  return {
    freshness,
    known,
    streams,
    logs,
    looked,
    refreshed: () => refreshed,
    remade: () => remade,
  };
};

/** Followed, and tools/ read once: what start-up leaves. */
const followedAndRead = async (options: Parameters<typeof setUp>[0] = {}) => {
  const setup = setUp(options);
  await setup.freshness.follow();
  await setup.streams[0]!.waiting();
  await setup.freshness.afterTurn();
  expect(setup.refreshed()).toBe(1);
  return setup;
};

describe('tools/ before a turn', () => {
  test('never read yet: read before the first turn, even while followed', async () => {
    const { freshness, refreshed, streams, looked } = setUp();
    await freshness.follow();
    expect(looked).toEqual(['tools']);
    await streams[0]!.waiting();
    await freshness.beforeTurn();
    expect(refreshed()).toBe(1);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(1);
  });

  test('followed and unchanged: no read; the names it already holds are no news', async () => {
    const { freshness, refreshed, streams } = await followedAndRead({
      known: { calculator: 'n1:d1', clock: 'n2:d2' },
    });
    // The follower first gives the names tools/ holds, as they were read.
    await streams[0]!.change({ add: 'calculator', value: { number: 'n1', node: 'd1' } });
    await streams[0]!.change({ add: 'clock', value: 'n2:d2' });
    // A name removed that was never read is no news either.
    await streams[0]!.change({ remove: 'gone-before' });
    await freshness.beforeTurn();
    expect(refreshed()).toBe(1);
  });

  test.each([
    ['a new name', { add: 'greeter', value: { number: 'n3', node: 'd3' } }],
    ['a name re-pointed', { add: 'calculator', value: { number: 'n9', node: 'd1' } }],
    ['a re-pointed name given whole', { add: 'calculator', value: 'n9:d1' }],
    ['a known name removed', { remove: 'calculator' }],
    ['a name added with an id it cannot read', { add: 'calculator', value: { number: 7 } }],
  ])('%s: read before the next turn, once', async (_what, change) => {
    const { freshness, refreshed, streams } = await followedAndRead({
      known: { calculator: 'n1:d1' },
    });
    await streams[0]!.change(change);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
  });

  test('a change without a name it can read is no news', async () => {
    const { freshness, refreshed, streams } = await followedAndRead({
      known: { calculator: 'n1:d1' },
    });
    await streams[0]!.change({ add: 7, remove: ['calculator'] });
    await freshness.beforeTurn();
    expect(refreshed()).toBe(1);
  });

  test('a change seen before the after-turn check is read by that check, not again before the turn', async () => {
    const { freshness, refreshed, streams } = await followedAndRead({
      known: { calculator: 'n1:d1' },
    });
    await streams[0]!.change({ remove: 'calculator' });
    await freshness.afterTurn();
    expect(refreshed()).toBe(2);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
  });

  test('while tools/ holds a tool source, it is read before and after every turn', async () => {
    const { freshness, refreshed } = await followedAndRead({ sources: true });
    await freshness.beforeTurn();
    await freshness.beforeTurn();
    expect(refreshed()).toBe(3);
    await freshness.afterTurn();
    expect(refreshed()).toBe(4);
  });
});

// Issue 46: a listing of tools/ after every turn was a daemon round trip per ping that told nothing new.
describe('tools/ after a turn', () => {
  test('followed and unchanged: no read after a turn either', async () => {
    const { freshness, refreshed, streams } = await followedAndRead({
      known: { calculator: 'n1:d1' },
    });
    await streams[0]!.change({ add: 'calculator', value: 'n1:d1' });
    await freshness.afterTurn();
    await freshness.beforeTurn();
    await freshness.afterTurn();
    expect(refreshed()).toBe(1);
  });

  test('a change seen during the turn is read after it, once', async () => {
    const { freshness, refreshed, streams } = await followedAndRead();
    await streams[0]!.change({ add: 'greeter', value: 'n3:d3' });
    await freshness.afterTurn();
    expect(refreshed()).toBe(2);
    await freshness.afterTurn();
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
  });

  test('a check of a change that fails is logged, and tools/ is read again at the next chance', async () => {
    const { freshness, refreshed, streams, logs } = await followedAndRead({
      refreshes: ['read', Error('daemon busy')],
    });
    await streams[0]!.change({ add: 'greeter', value: 'n3:d3' });
    await freshness.afterTurn();
    expect(logs).toEqual(['could not check tools/: daemon busy']);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(3);
    await freshness.afterTurn();
    expect(refreshed()).toBe(3);
  });
});

describe('tools/ that cannot be followed', () => {
  test('never opened: the log says so, and it is read before every turn', async () => {
    const { freshness, refreshed, logs, streams } = setUp({ lookupFails: true });
    await freshness.follow();
    expect(streams).toHaveLength(0);
    expect(logs).toEqual(['cannot follow tools/ (no tools/ here); it is read before each turn']);
    await freshness.afterTurn();
    await freshness.beforeTurn();
    await freshness.beforeTurn();
    expect(refreshed()).toBe(3);
  });

  test.each([
    ['ends', (stream: Stream) => stream.end(), 'the daemon ended it'],
    ['breaks', (stream: Stream) => stream.break(Error('Disconnected')), 'Disconnected'],
  ])(
    'a stream that %s: the log says why, and it is read before every turn',
    async (_what, how, why) => {
      const { freshness, refreshed, logs, streams } = await followedAndRead();
      how(streams[0]!);
      await expect
        .poll(() => logs)
        .toEqual([`stopped following tools/ (${why}); it is read before each turn`]);
      await freshness.beforeTurn();
      await freshness.beforeTurn();
      expect(refreshed()).toBe(3);
    },
  );

  test('a check that fails is logged, and tools/ is read again before the next turn', async () => {
    const { freshness, refreshed, logs, streams } = setUp({ refreshes: [Error('daemon busy')] });
    await freshness.follow();
    await streams[0]!.waiting();
    await freshness.afterTurn();
    expect(logs).toEqual(['could not check tools/: daemon busy']);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
  });
});

describe('a tools/ the daemon collected', () => {
  test('is made again, read again, and followed anew; the old stream is closed and heard no more', async () => {
    const { freshness, refreshed, remade, logs, streams, known } = setUp({
      refreshes: ['collected', 'read'],
    });
    await freshness.follow();
    await streams[0]!.waiting();
    await freshness.afterTurn();
    expect(logs).toEqual(['tools/ names a directory the daemon collected: making it again']);
    expect(remade()).toBe(1);
    expect(refreshed()).toBe(2);
    expect(streams).toHaveLength(2);
    expect(streams[0]!.returned()).toBe(1);
    await streams[1]!.waiting();
    // The old stream's end is not the new one's: nothing is logged, and tools/ is still followed.
    streams[0]!.end();
    known.calculator = 'n1:d1';
    await streams[1]!.change({ add: 'calculator', value: 'n1:d1' });
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
    expect(logs).toHaveLength(1);
  });

  test('collected again as it is made again: checked again at the next chance, until it reads', async () => {
    const { freshness, refreshed, remade, streams } = setUp({
      refreshes: ['collected', 'collected', 'read'],
    });
    await freshness.follow();
    await streams[0]!.waiting();
    await freshness.afterTurn();
    expect(remade()).toBe(1);
    expect(refreshed()).toBe(2);
    await freshness.beforeTurn();
    expect(refreshed()).toBe(3);
    await freshness.afterTurn();
    expect(refreshed()).toBe(3);
  });
});

describe('a stream replaced by a new one', () => {
  test('a change the old one still gives is not heard', async () => {
    const { freshness, refreshed, streams } = setUp({ refreshes: ['collected'], late: true });
    await freshness.follow();
    await streams[0]!.waiting();
    await freshness.afterTurn();
    await streams[1]!.waiting();
    expect(refreshed()).toBe(2);
    streams[0]!.give({ add: 'greeter', value: 'n3:d3' });
    // Read after the old one's (it came first): a name never read, removed, is no news.
    await streams[1]!.change({ remove: 'never-read' });
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
  });
});

describe('a change whose id cannot be read', () => {
  test('a new name is news all the same: read before the next turn', async () => {
    const { freshness, refreshed, streams } = await followedAndRead();
    await streams[0]!.change({ add: 'greeter', value: { number: 7 } });
    await freshness.beforeTurn();
    expect(refreshed()).toBe(2);
  });

  test.each([
    ['a number', { number: 7, node: 'd1' }],
    ['a node', { number: 'n1', node: 7 }],
  ])(
    '%s that is not text is news, even where it would print as the id read',
    async (_what, value) => {
      const { freshness, refreshed, streams, known } = await followedAndRead();
      known.calculator = `${value.number}:${value.node}`;
      await streams[0]!.change({ add: 'calculator', value });
      await freshness.beforeTurn();
      expect(refreshed()).toBe(2);
    },
  );
});

describe('stopping', () => {
  test('closes the stream, and its end afterwards is not logged', async () => {
    const { freshness, logs, streams } = await followedAndRead();
    freshness.stop();
    expect(streams[0]!.returned()).toBe(1);
    streams[0]!.end();
    await freshness.afterTurn();
    expect(logs).toEqual([]);
  });

  test('stopped while the stream was being opened: it is closed once it comes', async () => {
    const { freshness, streams } = setUp();
    const following = freshness.follow();
    freshness.stop();
    await following;
    expect(streams).toHaveLength(1);
    expect(streams[0]!.returned()).toBe(1);
  });
});
