/**
 * When the bench takes an exchange to be over (bench/exchange.ts): at the
 * memory write after its turn has ended, not at a write still under way for
 * earlier work, which would make figure 3's "whole message" read short
 * (docs/benchmark.md).
 */
import { expect, test } from 'vitest';
import { performance } from 'node:perf_hooks';
import { finishExchange, type ExchangeStart, type TimedEvent } from '../bench/exchange.js';
import type { ModelServer } from '../sim/model-server/index.js';

const server = { requests: [], timeInsideServerMs: () => 0 } as unknown as ModelServer;
const usage = { inputTokens: 1, outputTokens: 1 };

test("an earlier piece of work's memory write does not end the exchange: its own write after the turn does", async () => {
  let written = 0;
  const events: TimedEvent[] = [];
  const at = (kind: 'turn-start' | 'turn-end') => {
    const event =
      kind === 'turn-start'
        ? { kind, title: 'ping' }
        : { kind, title: 'ping', stopReason: 'answered' as const, modelCalls: 1, usage };
    events.push({ at: performance.now(), event, saves: written });
  };
  let polls = 0;
  let ownWriteAt = Number.NaN;
  // Each time the bench looks (at the events or at the writes), the agent goes on a step.
  const look = () => {
    polls += 1;
    // Earlier work's write lands after the message was sent, before its turn began.
    if (polls === 2) written += 1;
    if (polls === 4) {
      at('turn-start');
      at('turn-end');
    }
    // The bench looked several times since the turn ended; then the turn's own write.
    if (polls === 12) {
      ownWriteAt = performance.now();
      written += 1;
    }
  };
  const eventsSoFar = () => {
    look();
    return events;
  };
  const writesSoFar = () => {
    look();
    return written;
  };
  const start: ExchangeStart = {
    sentAt: performance.now(),
    firstEvent: 0,
    requestsBefore: 0,
    insideBefore: 0,
  };
  const exchange = await finishExchange(eventsSoFar, server, writesSoFar, start);
  expect(exchange.savedAt).toBeGreaterThanOrEqual(ownWriteAt);
  expect(exchange.modelCalls).toBe(1);
});
