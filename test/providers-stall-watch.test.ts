// The stall watch of a streamed reply (providers/stall-watch.ts): a stream that keeps arriving is
// never cut, however long it runs; one that stops for the limit is. A clock of the test's own
// (vitest's fake timers cannot replace the Date lockdown froze), so the rule is judged exactly and
// a loaded machine cannot bend it.
import { describe, expect, test, vi } from 'vitest';
import { answeredWhole, makeStallWatch, type WatchTimers } from '../providers/stall-watch.js';

/** A clock that moves only when told: the timers set on it, and how many wait. */
const makeClock = () => {
  let now = 0;
  let next = 0;
  const waiting = new Map<number, { at: number; callback: () => void }>();
  const timers: WatchTimers = {
    set: (callback, ms) => {
      next += 1;
      waiting.set(next, { at: now + ms, callback });
      return next;
    },
    clear: timer => {
      waiting.delete(timer as number);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, { at, callback }] of [...waiting]) {
      if (at <= now) {
        waiting.delete(id);
        callback();
      }
    }
  };
  return { timers, advance, waiting: () => waiting.size };
};

describe('a streamed reply that stops arriving', () => {
  test('is called stalled once no piece came for the limit, and not a moment before', () => {
    const clock = makeClock();
    const onStall = vi.fn();
    const watch = makeStallWatch(1_000, onStall, clock.timers);
    clock.advance(999);
    expect(onStall).not.toHaveBeenCalled();
    expect(watch.stalled).toBe(false);
    clock.advance(1);
    expect(onStall).toHaveBeenCalledTimes(1);
    expect(watch.stalled).toBe(true);
  });

  test('a stream still arriving is not cut, however long it runs in all', () => {
    const clock = makeClock();
    const onStall = vi.fn();
    const watch = makeStallWatch(1_000, onStall, clock.timers);
    for (let piece = 0; piece < 10; piece += 1) {
      clock.advance(900);
      watch.touch();
    }
    // 9 s in all, never 1 s without a piece.
    expect(onStall).not.toHaveBeenCalled();
    expect(watch.stalled).toBe(false);
    clock.advance(999);
    expect(onStall).not.toHaveBeenCalled();
    clock.advance(1);
    expect(onStall).toHaveBeenCalledTimes(1);
  });

  test('a stopped watch never calls it stalled, and a touch replaces the wait rather than adding one', () => {
    const clock = makeClock();
    const onStall = vi.fn();
    const watch = makeStallWatch(1_000, onStall, clock.timers);
    watch.touch();
    watch.touch();
    clock.advance(1_000);
    expect(onStall).toHaveBeenCalledTimes(1);
    const stopped = vi.fn();
    const other = makeStallWatch(1_000, stopped, clock.timers);
    clock.advance(500);
    other.stop();
    clock.advance(10_000);
    expect(stopped).not.toHaveBeenCalled();
    expect(other.stalled).toBe(false);
    expect(clock.waiting()).toBe(0);
  });
});

describe("with the host's own timers", () => {
  test('a watch left alone calls it stalled; a stopped one, with a shorter wait, never does', async () => {
    const stopped = vi.fn();
    const early = makeStallWatch(1, stopped);
    early.stop();
    const stalled = await new Promise<boolean>(resolve => {
      const watch = makeStallWatch(50, () => resolve(watch.stalled));
    });
    // The stopped watch's wait ended long before this one's.
    expect(stalled).toBe(true);
    expect(stopped).not.toHaveBeenCalled();
    expect(early.stalled).toBe(false);
  });
});

describe('a reply answered whole where a stream was asked for', () => {
  const answer = (contentType?: string) =>
    new Response(
      '{}',
      contentType === undefined ? {} : { headers: { 'content-type': contentType } },
    );

  test.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['application/x-ndjson', false],
    ['application/NDJSON', false],
    ['text/event-stream', false],
  ])('content-type %s: whole %s', (contentType, whole) => {
    expect(answeredWhole(answer(contentType))).toBe(whole);
  });

  test('a response that names no type is a stream', () => {
    const response = new Response(new Uint8Array([1]));
    response.headers.delete('content-type');
    expect(answeredWhole(response)).toBe(false);
  });
});
