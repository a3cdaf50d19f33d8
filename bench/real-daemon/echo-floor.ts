/**
 * The floors a ping to the agent is measured against in a real daemon
 * (docs/benchmark.md, "Measuring both ratios in a real daemon"): a caplet
 * that answers each `ping-<n>` with `pong: ping-<n>`. Without settings it is
 * model-free (the daemon's own cost of a message and a reply). Given
 * `LAL_HOST` and `LAL_MODEL` of an OpenAI-compatible server, it first makes
 * the one model request any LLM agent must make (streamed, read whole, its
 * answer unused): the daemon's cost plus the model's round trip, so the
 * agent's own work is what a ping costs beyond it.
 */
import { E } from '@endo/far';
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import { readProviderConfig } from '../../providers/config.js';
import { makeDaemonAdapter } from '../../src/daemon/daemon-adapter.js';
import { failureFor, isPing, pongFor } from './ping-words.js';

interface FloorPowers {
  reply(number: bigint, strings: string[], edgeNames: string[], petNames: string[]): void;
  dismiss(number: bigint): void;
}

const EchoFloorInterface = M.interface('EchoFloor', {
  help: M.call().returns(M.string()),
});

/** The model request, or none: OpenAI-compatible only, since that is the wire the doubles and the guide use. */
const modelCallFor = (env: Record<string, string>): (() => Promise<void>) | undefined => {
  if (env.LAL_HOST === undefined) return undefined;
  const config = readProviderConfig(env);
  if (config.kind !== 'openai')
    throw Error(
      `the echo floor calls OpenAI-compatible servers only; LAL_HOST ${config.host} is ${config.kind}`,
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

export const make = async (
  powers: FloorPowers | Promise<FloorPowers>,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  const callModel = modelCallFor(options.env ?? {});
  const daemon = await makeDaemonAdapter(powers, () => {});
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
        if (callModel !== undefined) await callModel();
      } catch (error) {
        // The timer reads this and stops, naming the floor and why.
        answer = failureFor(value.strings, error instanceof Error ? error.message : String(error));
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
