/**
 * No leaks on long runs (issue 11, item 9): thousands of tool calls that
 * time out, fail, succeed or are cancelled leave no listener on the agent's
 * long-lived signal; what the agent remembers per sender, per dismissed
 * message and per unmatched proposal copy stays bounded over thousands of
 * messages.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import type { ToolCall } from '../providers/types.js';
import { makeBoundedMap, makeBoundedSet } from '../src/lifecycle/bounded-collections.js';
import { runToolCall } from '../src/loop/run-tool-call.js';
import { executeTool } from '../src/builtin-tools/execute-tool.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import { makeSenderNames } from '../src/mail/sender-names.js';
import { makeNoticeQueue } from '../src/serving/notices.js';
import { emptyAskStore, makePendingAsks } from '../src/asks/pending-asks.js';
import { makeProposalTracker } from '../src/asks/proposal-tracker.js';
import type { BuiltinContext } from '../src/builtin-tools/dispatch-builtin-tool.js';

const never = new Promise<never>(() => {});

/** A context whose only tool hangs, fails or answers as its argument says. */
const contextWithTool = (): BuiltinContext => {
  const tool = Far('FaeTool', {
    execute: ({ mode }: { mode: string }) =>
      mode === 'hang' ? never : mode === 'fail' ? Promise.reject(Error('no')) : 'ok',
    schema: () => ({}),
    help: () => '',
  });
  const entry = {
    name: 'odd',
    petName: 'odd',
    schema: {
      type: 'function' as const,
      function: { name: 'odd', description: '', parameters: {} },
    },
    tool,
  };
  return {
    tools: {
      find: (name: string) => (name === 'odd' ? entry : undefined),
      schemas: () => [entry.schema],
      refresh: async () => {},
      refusal: () => undefined,
      refused: () => [],
    },
  } as unknown as BuiltinContext;
};

const decoded = (call: ToolCall) => decodeCall(call, text => text);

describe('no leaks on long runs', () => {
  test('3,000 tool calls (timed out, failed, answered) leave no abort listener on the long-lived signal', async () => {
    const controller = new AbortController();
    const context = contextWithTool();
    const limits = { toolTimeoutMs: 1, maxResultChars: 1_000 };
    const outcomes = { timedOut: 0, failed: 0, answered: 0 };
    for (let index = 0; index < 3_000; index += 1) {
      const mode = ['hang', 'fail', 'ok'][index % 3]!;
      const call: ToolCall = { id: `c${index}`, name: 'odd', arguments: JSON.stringify({ mode }) };
      const text = await runToolCall(
        decoded(call),
        (each, stop) => executeTool(each, context, ['odd'], stop),
        limits,
        controller.signal,
        () => {},
      );
      if (/timed out/.test(text)) outcomes.timedOut += 1;
      else if (/"error"/.test(text)) outcomes.failed += 1;
      else outcomes.answered += 1;
    }
    expect(outcomes).toEqual({ timedOut: 1_000, failed: 1_000, answered: 1_000 });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('a cancelled call takes its listener with it, and a call on a cancelled signal adds none', async () => {
    const controller = new AbortController();
    const context = contextWithTool();
    const pending = runToolCall(
      decoded({ id: 'a', name: 'odd', arguments: '{"mode":"hang"}' }),
      (each, stop) => executeTool(each, context, ['odd'], stop),
      { toolTimeoutMs: 60_000, maxResultChars: 1_000 },
      controller.signal,
      () => {},
    );
    // The call reaches the tool through a few turns of the event loop; wait until its listener is there.
    await expect.poll(() => getEventListeners(controller.signal, 'abort').length).toBe(1);
    controller.abort();
    expect(await pending).toMatch(/was cancelled/);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(
      await runToolCall(
        decoded({ id: 'b', name: 'odd', arguments: '{"mode":"hang"}' }),
        (each, stop) => executeTool(each, context, ['odd'], stop),
        { toolTimeoutMs: 60_000, maxResultChars: 1_000 },
        controller.signal,
        () => {},
      ),
    ).toMatch(/was cancelled/);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('the sender-name cache keeps the most recent senders only (5,000 senders)', async () => {
    const asked: string[] = [];
    let following: () => void = () => {};
    const followed = new Promise<void>(resolve => (following = resolve));
    const powers = {
      reverseIdentify: (id: string) => {
        asked.push(id);
        return [`name-of-${id.slice(0, 6)}`];
      },
      // Names are kept only while the directory's changes are followed; none come here.
      followNameChanges: () => ({
        next: () => {
          following();
          return new Promise(() => {});
        },
        return: () => ({ done: true }),
      }),
    };
    const controller = new AbortController();
    const nameOf = makeSenderNames(powers, undefined, {
      signal: controller.signal,
      log: () => {},
    });
    await followed;
    const ids = Array.from(
      { length: 5_000 },
      (_, index) => `${String(index).padStart(6, '0')}${'f'.repeat(122)}`,
    );
    for (const id of ids) await nameOf(id);
    expect(asked).toHaveLength(5_000);
    // The latest are remembered, the first long forgotten (asked again).
    await nameOf(ids[4_999]!);
    expect(asked).toHaveLength(5_000);
    expect(await nameOf(ids[0]!)).toBe('name-of-000000');
    expect(asked).toHaveLength(5_001);
    controller.abort();
  });

  test('5,000 proposals told before their copies came keep nothing beyond a bound, and a copy of nothing is not kept', async () => {
    const dismissed: bigint[] = [];
    const powers = {
      dismiss: (number: bigint) => {
        dismissed.push(number);
      },
      evaluate: () => 'done',
    };
    let told = 0;
    const notices = makeNoticeQueue(() => {
      told += notices.take().length;
    });
    const store = emptyAskStore();
    const asks = makePendingAsks({ store, powers: powers as never, log: () => {} });
    const tracker = makeProposalTracker({ powers: powers as never, log: () => {}, notices, asks });
    const copy = (number: bigint, source: string) =>
      ({ type: 'eval-proposal-proposer', number, source, resultName: 'r' }) as const;
    const propose = (source: string) =>
      tracker.propose({
        source,
        codeNames: [],
        petNamePaths: [],
        resultName: 'r',
        workerName: undefined,
        origin: undefined,
      });
    for (let number = 1; number <= 5_000; number += 1) propose(`code ${number}`);
    await expect.poll(() => told).toBe(5_000);
    expect(store.pending).toEqual([]);
    // The first were forgotten long ago: their copies are not taken for anything.
    expect(asks.claimOwnCopy(copy(1n, 'code 1'))).toBe(false);
    expect(asks.claimOwnCopy(copy(2n, 'nobody proposed this'))).toBe(false);
    // The latest still take theirs, and dismiss it at once.
    expect(asks.claimOwnCopy(copy(9_001n, 'code 5000'))).toBe(true);
    await expect.poll(() => dismissed).toEqual([9_001n]);
  });

  test('bounded set and map forget the oldest first', () => {
    const set = makeBoundedSet<number>(256);
    const map = makeBoundedMap<number, number>(512);
    for (let index = 0; index < 10_000; index += 1) {
      set.add(index);
      map.set(index, index);
    }
    expect(set.size).toBe(256);
    expect(map.size).toBe(512);
    expect(set.delete(0)).toBe(false);
    expect(set.delete(9_999)).toBe(true);
    expect(map.get(0)).toBeUndefined();
    expect(map.get(9_999)).toBe(9_999);
  });
});
