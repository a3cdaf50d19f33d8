/**
 * The serving loop's queue (src/serving/work-queue.ts): first lanes before the
 * others, lanes taking turns within a tier, each lane in its own order.
 */
import { describe, expect, test } from 'vitest';
import { makeWorkQueue } from '../src/serving/work-queue.js';

type Item = { from: string; n: number };
const laneOf = (item: Item) => ({ key: item.from, first: item.from === 'HOST' });

const drain = async (queue: ReturnType<typeof makeWorkQueue<Item>>) => {
  const out: string[] = [];
  queue.close();
  for (let item = await queue.take(); item !== undefined; item = await queue.take())
    out.push(`${item.from}${item.n}`);
  return out;
};

describe('the work queue', () => {
  test('a HOST item behind a flood is taken first, and flooding senders take turns, each in order', async () => {
    const queue = makeWorkQueue<Item>(laneOf);
    for (let n = 1; n <= 4; n += 1) queue.push({ from: 'bob', n });
    queue.push({ from: 'carol', n: 1 });
    queue.push({ from: 'carol', n: 2 });
    queue.push({ from: 'HOST', n: 1 });
    expect(queue.size()).toBe(7);
    expect(queue.waiting()).toEqual([
      { lane: 'HOST', size: 1 },
      { lane: 'bob', size: 4 },
      { lane: 'carol', size: 2 },
    ]);
    expect(await drain(queue)).toEqual([
      'HOST1',
      'bob1',
      'carol1',
      'bob2',
      'carol2',
      'bob3',
      'bob4',
    ]);
  });

  test('an item pushed while the loop waits goes straight to it; without lanes it is first in, first out', async () => {
    const queue = makeWorkQueue<Item>();
    const taken = queue.take();
    queue.push({ from: 'bob', n: 1 });
    expect(await taken).toEqual({ from: 'bob', n: 1 });
    queue.push({ from: 'bob', n: 2 });
    queue.push({ from: 'HOST', n: 1 });
    queue.push({ from: 'bob', n: 3 });
    expect(await drain(queue)).toEqual(['bob2', 'HOST1', 'bob3']);
    expect(await queue.take()).toBeUndefined();
  });

  test('from a backlog, an item of a lane not first waits for what is on its way, and a HOST item that comes meanwhile goes first; an idle taker does not wait (behaviour 9.3)', async () => {
    let arrive: () => void = () => {};
    let asked = 0;
    const queue = makeWorkQueue<Item>(laneOf, {
      beforeRest: () => {
        asked += 1;
        return new Promise<void>(resolve => {
          arrive = resolve;
        });
      },
    });
    // Idle: bob's first is taken as it comes.
    const first = queue.take();
    queue.push({ from: 'bob', n: 1 });
    expect(await first).toEqual({ from: 'bob', n: 1 });
    expect(asked).toBe(0);
    // A backlog: bob's next waits for the stream to catch up, which brings the HOST's.
    queue.push({ from: 'bob', n: 2 });
    const next = queue.take();
    await Promise.resolve();
    expect(asked).toBe(1);
    queue.push({ from: 'HOST', n: 1 });
    arrive();
    expect(await next).toEqual({ from: 'HOST', n: 1 });
  });
});

describe('closing the work queue', () => {
  test('a taker waiting on an empty queue gets undefined when it closes (the loop stops)', async () => {
    const queue = makeWorkQueue<Item>(laneOf);
    const taken = queue.take();
    queue.close();
    expect(await taken).toBeUndefined();
  });

  test('what is pushed after closing is dropped; what was queued before is still served', async () => {
    const queue = makeWorkQueue<Item>(laneOf);
    queue.push({ from: 'bob', n: 1 });
    queue.close();
    queue.push({ from: 'HOST', n: 1 });
    expect(queue.size()).toBe(1);
    expect(await queue.take()).toEqual({ from: 'bob', n: 1 });
    expect(await queue.take()).toBeUndefined();
  });
});

describe('the work queue without lanes', () => {
  test('one first lane: a backlog is served at once, never waiting for what is on its way', async () => {
    let asked = 0;
    const queue = makeWorkQueue<Item>(undefined, {
      beforeRest: () => {
        asked += 1;
        return new Promise<void>(() => {});
      },
    });
    queue.push({ from: 'bob', n: 1 });
    queue.push({ from: 'carol', n: 1 });
    expect(queue.waiting()).toEqual([{ lane: '', size: 2 }]);
    expect(await queue.take()).toEqual({ from: 'bob', n: 1 });
    expect(await queue.take()).toEqual({ from: 'carol', n: 1 });
    expect(asked).toBe(0);
  });
});

describe("the work queue's arrival", () => {
  test('settles at the next push, and at once on a closed queue: the serving loop waits on it before a write that may wait', async () => {
    const queue = makeWorkQueue<Item>(laneOf);
    let arrived = false;
    const arrival = queue.arrival().then(() => {
      arrived = true;
    });
    // Nothing pushed yet: a turn of the event loop later it has not settled.
    await Promise.resolve();
    await Promise.resolve();
    expect(arrived).toBe(false);
    queue.push({ from: 'bob', n: 1 });
    await arrival;
    expect(arrived).toBe(true);
    // The item is still there for the taker: waiting on arrival takes nothing.
    expect(queue.size()).toBe(1);
    const next = queue.arrival();
    queue.close();
    await next;
    await queue.arrival();
  });
});
