/**
 * The in-process floor under a ping (figure 15): a caplet beside the agent in
 * the mail host that answers each message with one model call and a reply,
 * and does nothing else. It asks through the agent's own provider (the real
 * SDK, streaming) with the request an agent's first ping makes (the persona's
 * system prompt and built-in tools for this daemon, one notice), because the
 * SDK and the request's size are costs the agent cannot shed (the SDKs stay),
 * so agent / floor reads the agent's own work alone: following the mail, the
 * notice, the history and the request built, the reply decoded, judged and
 * run. A bare fetch (the real-daemon "echollm") would also count the SDK
 * against the agent. Follows with the agent's daemon adapter, so both
 * daemons' mail streams are read as the agent reads them.
 */
import { E } from '@endo/far';
import { makeDaemonAdapter } from '../src/daemon/daemon-adapter.js';
import { makeFloorAsk } from './floor-request.js';
import type { MessageRecord } from '../src/mail/message-record.js';
import type { MailHost } from '../sim/mail-host/index.js';
import type { ModelServer } from '../sim/model-server/index.js';

type Powers = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** The strings of the model's `reply` call (the bench's model answers a ping with one). */
const replyStrings = (calls: readonly { name: string; arguments: string }[] | undefined) => {
  const call = calls?.find(each => each.name === 'reply');
  const parsed: unknown = call === undefined ? undefined : JSON.parse(call.arguments);
  const strings = (parsed as { strings?: unknown } | undefined)?.strings;
  return Array.isArray(strings) ? strings.map(String) : ['pong'];
};

const makeEcho =
  (persona: 'lal' | 'fae') =>
  async (powersP: unknown, context: unknown, { env }: { env: Record<string, string> }) => {
    const powers = await powersP;
    const daemon = await makeDaemonAdapter(powers, () => {});
    const ask = makeFloorAsk(persona, daemon, env);
    const stream = await daemon.follow();
    void E(context as Powers).whenCancelled!().catch(() => stream.return());
    const serve = async () => {
      for (;;) {
        const { done, value } = await stream.next();
        if (done === true) return;
        const message = value as MessageRecord;
        if (typeof message.number !== 'bigint') continue;
        const far = E(powers as Powers);
        // Its own copies are dismissed, as the agent's are.
        if (daemon.isOwn(message)) {
          void far.dismiss!(message.number);
          continue;
        }
        const { message: answer } = await ask(message);
        await far.reply!(message.number, replyStrings(answer.toolCalls), [], []);
        void far.dismiss!(message.number);
      }
    };
    void serve().catch(() => {});
    return harden({});
  };

export interface ModelEcho {
  name: string;
  stop(): Promise<void>;
}

/** Starts the floor caplet as guest `name` of `host`, asking `server` (an OpenAI-wire double). */
export const startModelEcho = async (
  host: MailHost,
  server: ModelServer,
  persona: 'lal' | 'fae',
  name = 'echo',
): Promise<ModelEcho> => {
  await E(host.host).provideGuest(name, { agentName: `profile-for-${name}` });
  const caplet = await host.startCaplet(makeEcho(persona), {
    powersName: `profile-for-${name}`,
    env: {
      LAL_HOST: server.url,
      LAL_PROVIDER: server.protocol,
      LAL_MODEL: 'double-model',
      LAL_AUTH_TOKEN: 'bench-key-not-secret',
    },
    workerName: `worker-${name}`,
  });
  return harden({ name, stop: () => caplet.cancel('bench over') });
};
harden(startModelEcho);
