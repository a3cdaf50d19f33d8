/**
 * A model call stopped part-way (Ctrl-C in the simulator, a cancelled caplet) used tokens the
 * server never counted for the agent: the turn's usage holds an estimate of them (the request's
 * size, as the loop measured it, and the text that had streamed, three characters a token), and
 * its one turn-end says the figures are estimated (docs/behaviour.md 10.2).
 */
import { describe, expect, test } from 'vitest';
import type { AgentEvent } from '../src/events/agent-events.js';
import { runTurn } from '../src/loop/run-turn.js';
import { CHARS_PER_TOKEN } from '../src/history/estimate-tokens.js';
import { ProviderError, type ChatOptions, type Provider } from '../providers/types.js';
import { turnSetup } from './support/turn-setup.js';

/** A model that streams `streamed` (nothing when empty), then waits for the stop and fails as stopped. */
const stalling = (streamed: string, first?: { inputTokens: number; outputTokens: number }) => {
  let calls = 0;
  const provider: Provider = {
    kind: 'test',
    model: 'm',
    chat: async (_messages, _tools, options?: ChatOptions) => {
      calls += 1;
      if (calls === 1 && first !== undefined)
        return {
          message: {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: 'list', arguments: '{}' }],
          },
          usage: first,
        };
      if (streamed !== '') options?.onText?.(streamed);
      await new Promise<void>(resolve => {
        if (options?.signal?.aborted === true) resolve();
        options?.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      throw new ProviderError('aborted', 'the request was aborted');
    },
  };
  return provider;
};

/** Runs a turn and stops it once its model call number `stopAt` is under way. */
const stopWhileCalling = async (provider: Provider, stopAt = 1) => {
  const events: AgentEvent[] = [];
  const stop = new AbortController();
  const outcome = await runTurn(
    turnSetup(provider, {
      signal: stop.signal,
      observe: event => {
        events.push(event);
        if (event.kind === 'model-call' && event.call === stopAt)
          queueMicrotask(() => stop.abort());
      },
    }),
  );
  return { outcome, events };
};

const estimatesOf = (events: readonly AgentEvent[]) =>
  events.flatMap(event => (event.kind === 'model-call' ? [event.estimatedTokens] : []));
const endOf = (events: readonly AgentEvent[]) => {
  const end = events.at(-1);
  if (end?.kind !== 'turn-end') throw new Error('the turn did not end with its turn-end');
  return end;
};

describe("a model call stopped part-way: the turn's usage", () => {
  test('holds the request and the streamed text, estimated, and the turn-end says so', async () => {
    const text = 'Once upon a time there lived a fox';
    const { outcome, events } = await stopWhileCalling(stalling(text));
    expect(outcome.stopReason).toBe('cancelled');
    const [input] = estimatesOf(events);
    expect(input).toBeGreaterThan(0);
    const output = Math.ceil(text.length / CHARS_PER_TOKEN);
    expect(outcome.usage).toEqual({ inputTokens: input, outputTokens: output });
    const end = endOf(events);
    expect(end.usage).toEqual({ inputTokens: input, outputTokens: output });
    expect(end.usageEstimated).toBe(true);
  });

  test('adds the estimate to what the calls before it reported', async () => {
    const { outcome, events } = await stopWhileCalling(
      stalling('', { inputTokens: 100, outputTokens: 7 }),
      2,
    );
    const [, second] = estimatesOf(events);
    expect(outcome.usage).toEqual({ inputTokens: 100 + second!, outputTokens: 7 });
    expect(endOf(events).usageEstimated).toBe(true);
  });

  test('a turn whose calls all answered says nothing is estimated', async () => {
    const events: AgentEvent[] = [];
    const answering: Provider = {
      kind: 'test',
      model: 'm',
      chat: async () => ({
        message: { role: 'assistant', content: 'hi' },
        usage: { inputTokens: 10, outputTokens: 1 },
      }),
    };
    await runTurn(turnSetup(answering, { observe: event => events.push(event) }));
    expect(endOf(events).usage).toEqual({ inputTokens: 10, outputTokens: 1 });
    expect('usageEstimated' in endOf(events)).toBe(false);
  });
});
