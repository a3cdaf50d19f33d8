/**
 * Runs the agent for the benchmark as the daemon runs it: `make()` started
 * by the mail host (the daemon double) on a guest's powers over CapTP, the
 * real provider from `createProvider(env)` talking HTTP to a zero-latency
 * model server double on 127.0.0.1. Every agent event is stamped with
 * performance.now() (the same clock as the server's receivedAt).
 */
import { STATE_DIRECTORY } from '../src/daemon/own-names.js';
import { E } from '@endo/far';
import { performance } from 'node:perf_hooks';
import { make } from '../agent.js';
import { makeMailHost, type MailHost } from '../sim/mail-host/index.js';
import {
  startModelServer,
  type ModelProtocol,
  type ModelServer,
} from '../sim/model-server/index.js';
import type { Env } from '../providers/types.js';
import type { Clock } from '../src/lifecycle/clock.js';
import { finishExchange, type Exchange, type ExchangeStart, type TimedEvent } from './exchange.js';
import { makeScriptedModel, type ScriptedModel } from './scripted-model.js';

// eslint-disable-next-line @endo/harden-exports -- a type: nothing at run time to harden
export type { Exchange } from './exchange.js';

export interface BenchAgentOptions {
  persona: 'lal' | 'fae';
  protocol?: ModelProtocol;
  host?: MailHost;
  /** Host pet name → guest pet name, introduced when the guest is made. */
  introducedNames?: Record<string, string>;
  env?: Record<string, string>;
  /** The agent's time (a manual clock for a simulated day); the system's by default. */
  clock?: Clock;
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
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      observe: event => {
        events.push({ at: performance.now(), event, saves: saves() });
      },
    });
  const caplet = await host.startCaplet(makeFn, {
    powersName: `profile-for-${name}`,
    env,
    workerName: `worker-${name}`,
  });
  const greeting = persona === 'fae' ? 'Fae agent ready.' : 'Lal agent ready.';
  await host.waitForMessage(
    message => message.type === 'package' && message.strings.join('').startsWith(greeting),
    { timeoutMs: 10_000 },
  );

  /**
   * Memory written so far, in bytes: the agent writes it last after every piece of work (with the
   * history's open chunk inside it; a full chunk, written apart, just before), so it grows once per
   * exchange.
   */
  const saves = () => host.storedBytes(name)[STATE_DIRECTORY] ?? 0;

  /** Waits for the exchange that began at `start` to be finished, then measures it. */
  const finish = (start: ExchangeStart) => finishExchange(() => events, server, saves, start);

  const send = async (
    text: string,
    attach?: { edgeNames: string[]; petNames: string[] },
  ): Promise<number> => {
    const sentAt = performance.now();
    await E(host.host).send(
      name,
      [text, ...(attach?.edgeNames.map(() => '') ?? [])],
      attach?.edgeNames ?? [],
      attach?.petNames ?? [],
    );
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
      const sentAt = await send(text, attach);
      return finish({ sentAt, firstEvent, requestsBefore, insideBefore });
    },
    async nextTurn() {
      return finish({
        sentAt: performance.now(),
        firstEvent: events.length,
        requestsBefore: server.requests.length,
        insideBefore: server.timeInsideServerMs(),
      });
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
harden(startBenchAgent);
