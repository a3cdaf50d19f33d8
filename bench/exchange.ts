/**
 * One exchange as the bench measures it: from the host's send (or the start
 * of a turn the agent begins by itself) until the agent has saved its memory,
 * with the model calls, request sizes and time spent in the server and tools.
 */
import { performance } from 'node:perf_hooks';
import type { ModelServer } from '../sim/model-server/index.js';
import type { AgentEvent } from '../src/events/agent-events.js';

export interface TimedEvent {
  at: number;
  event: AgentEvent;
  /** The memory writes seen when the event came: a turn's own write comes after its turn-end. */
  saves: number;
}

/** What one message cost, from the host's send until the agent saved its memory. */
export interface Exchange {
  sentAt: number;
  /** When the server received the first model request of the turn. */
  firstRequestAt: number;
  turnStartAt: number;
  turnEndAt: number;
  /** When the agent's memory write (the last thing it does per message) was seen. */
  savedAt: number;
  /** Time the server spent on this exchange's requests. */
  insideServerMs: number;
  modelCalls: number;
  /** Body sizes as the server received them, in order. */
  requestBytes: number[];
  /** The agent's own estimate per model call, in order. */
  estimatedTokens: number[];
  /** Sum over model calls of model-call → model-reply (SDK + HTTP + server). */
  modelRoundTripMs: number;
  /** Sum over tool calls of tool-call → tool-result (guest powers through the mail host). */
  toolCallMs: number;
  events: TimedEvent[];
}

/** Resolves on the next turn of the event loop, without the 1 ms floor of timers. */
export const tick = () => new Promise<void>(resolve => setImmediate(resolve));
harden(tick);

const eventsOf = <K extends AgentEvent['kind']>(events: readonly TimedEvent[], kind: K) =>
  events.filter(
    (timed): timed is TimedEvent & { event: Extract<AgentEvent, { kind: K }> } =>
      timed.event.kind === kind,
  );

/** Pairs each `open` event with the next `close` event and sums the gaps. */
const pairedMs = (
  events: readonly TimedEvent[],
  open: AgentEvent['kind'],
  close: AgentEvent['kind'],
): number => {
  let total = 0;
  let openedAt: number | undefined;
  for (const { at, event } of events) {
    if (event.kind === open) openedAt = at;
    else if (event.kind === close && openedAt !== undefined) {
      total += at - openedAt;
      openedAt = undefined;
    }
  }
  return total;
};

/** Where an exchange begins in each log: events, server requests, server time. */
export interface ExchangeStart {
  sentAt: number;
  firstEvent: number;
  requestsBefore: number;
  insideBefore: number;
}

/**
 * Waits for the next turn-end and the memory write after it, then measures the turn. Only a
 * write made after the turn-end counts: one still under way for earlier work (a save begun
 * before this exchange was sent) would end the exchange early.
 */
export const finishExchange = async (
  events: () => readonly TimedEvent[],
  server: ModelServer,
  saves: () => number,
  { sentAt, firstEvent, requestsBefore, insideBefore }: ExchangeStart,
): Promise<Exchange> => {
  const deadline = performance.now() + 30_000;
  const turnEndOf = () =>
    events()
      .slice(firstEvent)
      .find(timed => timed.event.kind === 'turn-end');
  for (;;) {
    const turnEnd = turnEndOf();
    if (turnEnd !== undefined && saves() > turnEnd.saves) break;
    if (performance.now() > deadline)
      throw new Error('bench: the agent did not finish a turn within 30 s');
    await tick();
  }
  const savedAt = performance.now();
  const mine = events().slice(firstEvent);
  const requests = server.requests
    .slice(requestsBefore)
    .filter(request => request.normalized !== undefined);
  const turnEnd = eventsOf(mine, 'turn-end')[0]!;
  return {
    sentAt,
    firstRequestAt: requests[0]?.receivedAt ?? Number.NaN,
    turnStartAt: eventsOf(mine, 'turn-start')[0]?.at ?? Number.NaN,
    turnEndAt: turnEnd.at,
    savedAt,
    insideServerMs: server.timeInsideServerMs() - insideBefore,
    modelCalls: turnEnd.event.modelCalls,
    requestBytes: requests.map(request => request.bytes),
    estimatedTokens: eventsOf(mine, 'model-call').map(timed => timed.event.estimatedTokens),
    modelRoundTripMs: pairedMs(mine, 'model-call', 'model-reply'),
    toolCallMs: pairedMs(mine, 'tool-call', 'tool-result'),
    events: mine,
  };
};
harden(finishExchange);
