/**
 * The floors a ping to the agent is measured against in a real daemon
 * (docs/benchmark.md, "Measuring both ratios in a real daemon"): a caplet
 * that answers each `ping-<n>` with `pong: ping-<n>`. Without settings it is
 * model-free (the daemon's own cost of a message and a reply). Given
 * `LAL_HOST` and `LAL_MODEL` it first makes the one model request any LLM
 * agent must make, its answer unused: with `FLOOR_ASK=fetch` (the default) a
 * bare streamed `fetch` to an OpenAI-compatible server, the model's round
 * trip alone; with `FLOOR_ASK=provider` the request the agent's first ping
 * makes, through the agent's provider (../floor-request.ts, any LAL_PROVIDER,
 * `LAL_PERSONA`'s prompt), so the agent's own work is what a ping costs
 * beyond it.
 */
import { E } from '@endo/far';
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import { readProviderConfig } from '../../providers/config.js';
import { makeDaemonAdapter, type DaemonAdapter } from '../../src/daemon/daemon-adapter.js';
import type { MessageRecord } from '../../src/mail/message-record.js';
import { makeFloorAsk } from '../floor-request.js';
import { describeError } from '../../providers/describe-error.js';
import { failureFor, isPing, pongFor } from './ping-words.js';

interface FloorPowers {
  reply(number: bigint, strings: string[], edgeNames: string[], petNames: string[]): void;
  dismiss(number: bigint): void;
}

const EchoFloorInterface = M.interface('EchoFloor', {
  help: M.call().returns(M.string()),
});

type ModelCall = (message: MessageRecord) => Promise<void>;

/** A bare streamed request to an OpenAI-compatible server, read whole. */
const fetchCall = (env: Record<string, string>): ModelCall => {
  const config = readProviderConfig(env);
  if (config.kind !== 'openai')
    throw Error(
      `the echo floor's FLOOR_ASK=fetch calls OpenAI-compatible servers only; LAL_HOST ${config.host} is ${config.kind} (FLOOR_ASK=provider asks any)`,
    );
  const url = `${config.host.replace(/\/+$/, '')}/chat/completions`;
  return async () => {
    const body = JSON.stringify({
      model: config.model,
      stream: true,
      messages: [{ role: 'user', content: 'Message #1 from HOST: ping' }],
    });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    await response.text();
    if (!response.ok) throw Error(`the model server answered HTTP ${response.status}`);
  };
};

/** The model request the settings ask for, or none. */
const modelCallFor = (
  env: Record<string, string>,
  daemon: DaemonAdapter,
): ModelCall | undefined => {
  const ask = env.FLOOR_ASK ?? 'fetch';
  if (env.LAL_HOST === undefined) {
    if (env.FLOOR_ASK !== undefined) throw Error('the echo floor needs LAL_HOST for FLOOR_ASK');
    return undefined;
  }
  if (ask === 'fetch') return fetchCall(env);
  if (ask !== 'provider')
    throw Error(`the echo floor's FLOOR_ASK is fetch or provider, got ${JSON.stringify(ask)}`);
  const persona = env.LAL_PERSONA ?? 'lal';
  if (persona !== 'lal' && persona !== 'fae')
    throw Error(`the echo floor's LAL_PERSONA is lal or fae, got ${JSON.stringify(persona)}`);
  const chat = makeFloorAsk(persona, daemon, env);
  return async message => {
    await chat(message);
  };
};

export const make = async (
  powers: FloorPowers | Promise<FloorPowers>,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  const daemon = await makeDaemonAdapter(powers, () => {});
  const callModel = modelCallFor(options.env ?? {}, daemon);
  const stream = await daemon.follow();
  const serve = async () => {
    for (;;) {
      const { done, value } = (await stream.next()) as IteratorResult<{
        number?: unknown;
        strings?: unknown;
      }>;
      if (done) return;
      const { number } = value;
      if (typeof number !== 'bigint') continue;
      // Anything else (its own replies' copies at f0a46042a among them) would fill the inbox.
      if (!isPing(value.strings)) {
        void Promise.resolve(E(powers).dismiss(number)).catch(() => {});
        continue;
      }
      let answer = pongFor(value.strings);
      try {
        if (callModel !== undefined) await callModel(value);
      } catch (error) {
        // The timer reads this and stops, naming the floor and why.
        answer = failureFor(value.strings, describeError(error));
      }
      await E(powers).reply(number, [answer], [], []);
      void Promise.resolve(E(powers).dismiss(number)).catch(() => {});
    }
  };
  // A floor whose stream ends leaves its pings unanswered: the timer says which.
  void serve().catch(() => {});
  return makeExo('EchoFloor', EchoFloorInterface, {
    help: () =>
      callModel === undefined
        ? 'echo floor: answers ping-<n> with pong: ping-<n>'
        : 'echo floor: one model request, then pong: ping-<n>',
  });
};
harden(make);
