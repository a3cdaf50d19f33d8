/**
 * Runs the agent for the benchmark as the daemon runs it: `make()` started
 * by the mail host (the daemon double) on a guest's powers over CapTP, the
 * real provider from `createProvider(env)` talking HTTP to a zero-latency
 * model server double on 127.0.0.1. Every agent event is stamped with
 * performance.now() (the same clock as the server's receivedAt).
 */
import { E } from '@endo/far';
import { performance } from 'node:perf_hooks';
import { make } from '../agent.js';
import { makeMailHost, type MailHost } from '../sim/mail-host/index.js';
import { startModelServer, type ModelProtocol, type ModelServer } from '../sim/model-server/index.js';
import type { AgentEvent } from '../src/loop/agent-events.js';
import type { Env } from '../providers/types.js';
import { makeScriptedModel, type ScriptedModel } from './scripted-model.js';

export interface TimedEvent {
  at: number;
  event: AgentEvent;
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

export interface BenchAgentOptions {
  persona: 'lal' | 'fae';
  protocol?: ModelProtocol;
  host?: MailHost;
  /** Host pet name → guest pet name, introduced when the guest is made. */
  introducedNames?: Record<string, string>;
  env?: Record<string, string>;
}

export interface BenchAgent {
  host: MailHost;
  server: ModelServer;
  name: string;
  model: ScriptedModel;
  /** Mails the agent as HOST; returns when it was sent. */
  send(text: string, attach?: { edgeNames: string[]; petNames: string[] }): Promise<number>;
  /** Sends `text` and waits until the agent has finished with it (memory saved). */
  exchange(text: string, attach?: { edgeNames: string[]; petNames: string[] }): Promise<Exchange>;
  /** Waits for a turn the agent starts by itself (e.g. a proposal outcome) to be finished. */
  nextTurn(): Promise<Exchange>;
  /** Drops what the bench and the doubles keep per message (host inbox, request log). */
  forget(): Promise<void>;
  stop(): Promise<void>;
}

/** Resolves on the next turn of the event loop, without the 1 ms floor of timers. */
const tick = () => new Promise<void>(resolve => setImmediate(resolve));

const eventsOf = <K extends AgentEvent['kind']>(events: readonly TimedEvent[], kind: K) =>
  events.filter((timed): timed is TimedEvent & { event: Extract<AgentEvent, { kind: K }> } => timed.event.kind === kind);

/** Pairs each `open` event with the next `close` event and sums the gaps. */
const pairedMs = (events: readonly TimedEvent[], open: AgentEvent['kind'], close: AgentEvent['kind']): number => {
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

export const startBenchAgent = async (options: BenchAgentOptions): Promise<BenchAgent> => {
  const { persona } = options;
  const protocol = options.protocol ?? 'openai';
  const name = persona;
  const host = options.host ?? makeMailHost();
  const model = makeScriptedModel();
  const server = await startModelServer({ protocol, reply: model.reply });
  await E(host.host).provideGuest(name, {
    agentName: `profile-for-${name}`,
    ...(options.introducedNames === undefined ? {} : { introducedNames: options.introducedNames }),
  });
  const env: Record<string, string> = {
    LAL_PERSONA: persona,
    LAL_HOST: server.url,
    LAL_PROVIDER: protocol,
    LAL_MODEL: 'double-model',
    LAL_AUTH_TOKEN: 'bench-key-not-secret',
    LAL_LOG: 'off',
    ...options.env,
  };
  let events: TimedEvent[] = [];
  const makeFn = (powers: unknown, context: unknown, extra: { env?: Env } = {}) =>
    make(powers as never, context, {
      ...extra,
      log: () => {},
      observe: event => {
        events.push({ at: performance.now(), event });
      },
    });
  const caplet = await host.startCaplet(makeFn, { powersName: `profile-for-${name}`, env, workerName: `worker-${name}` });
  const greeting = persona === 'fae' ? 'Fae agent ready.' : 'Lal agent ready.';
  await host.waitForMessage(message => message.type === 'package' && message.strings.join('').startsWith(greeting), { timeoutMs: 10_000 });

  /** Memory writes so far: the agent writes once after every piece of work. */
  const saves = () => host.callCounts(name).storeValue ?? 0;

  /** Waits for the next turn-end and the memory write after it, then measures the turn. */
  const finish = async (
    sentAt: number,
    firstEvent: number,
    requestsBefore: number,
    insideBefore: number,
    savesBefore: number,
  ): Promise<Exchange> => {
    const deadline = performance.now() + 30_000;
    while (saves() <= savesBefore || !events.slice(firstEvent).some(timed => timed.event.kind === 'turn-end')) {
      if (performance.now() > deadline) throw new Error('bench: the agent did not finish a turn within 30 s');
      await tick();
    }
    const savedAt = performance.now();
    const mine = events.slice(firstEvent);
    const requests = server.requests.slice(requestsBefore).filter(request => request.normalized !== undefined);
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

  const send = async (text: string, attach?: { edgeNames: string[]; petNames: string[] }): Promise<number> => {
    const sentAt = performance.now();
    await E(host.host).send(name, [text, ...(attach?.edgeNames.map(() => '') ?? [])], attach?.edgeNames ?? [], attach?.petNames ?? []);
    return sentAt;
  };

  return {
    host,
    server,
    name,
    model,
    send,
    async exchange(text, attach) {
      const firstEvent = events.length;
      const requestsBefore = server.requests.length;
      const insideBefore = server.timeInsideServerMs();
      const savesBefore = saves();
      const sentAt = await send(text, attach);
      return finish(sentAt, firstEvent, requestsBefore, insideBefore, savesBefore);
    },
    async nextTurn() {
      return finish(performance.now(), events.length, server.requests.length, server.timeInsideServerMs(), saves());
    },
    async forget() {
      await E(host.host).dismissAll();
      // The server double records every request body; a long run would
      // otherwise measure the double's log in the heap figure.
      server.requests.length = 0;
      events = [];
    },
    async stop() {
      await caplet.cancel('bench over');
      await server.close();
    },
  };
};
