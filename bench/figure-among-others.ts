/**
 * Figures 9 and 10, the agent among others (docs/behaviour.md 9).
 *
 * 9. Each thread's prefix reuse: a conversation that goes round the HOST
 *    and two peers (bob, carol), 60 rounds, each message a ping answered
 *    with a pong, against the OpenAI wire double. Each request is read back
 *    as the server got it (tools, then each message) and compared with the
 *    previous request of the same thread: the bytes a prefix cache keyed by
 *    thread can reuse. Target: ≥ 90% in every thread. Beside it, the same
 *    against the previous request whatever its thread (a cache of one
 *    prefix only), for reference.
 * 10. The HOST's wait behind a flood: a peer sends 0, 100 and 1,000
 *    messages, the HOST one right after, behind them in the mail stream;
 *    counted are the peer's model requests between the HOST's send and the
 *    HOST's first model request (target: at most the one under way), and
 *    timed the HOST's send to its first model request and the model's
 *    answer to the reply in the HOST's inbox (target ≤ 1 s).
 */
import { E } from '@endo/far';
import { performance } from 'node:perf_hooks';
import type { ModelServer } from '../sim/model-server/index.js';
import { startBenchAgent, type BenchAgent } from './bench-agent.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import { prefixTextOf, reuseOf, type Reuse } from './prefix-reuse.js';

type RecordedRequest = ModelServer['requests'][number];

const ROUNDS = 60;
const REUSE_TARGET = 0.9;
const REWRITE_SHARE = 0.25;
const FLOODS = [0, 100, 1_000];
const ANSWER_TARGET_MS = 1_000;
// The peers are not held after a few turns in a row: only the order of service is measured.
const UNBOUNDED_PEERS = {
  LAL_MAX_PEER_EXCHANGES: '100000',
  LAL_MAX_TURNS_PER_SENDER_PER_HOUR: '100000',
};

interface WireBody {
  messages?: unknown[];
}

/** The sender of the message a request serves: the latest notice's. */
const senderOf = (request: RecordedRequest): string => {
  const messages = (request.body as WireBody).messages ?? [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as { role?: string; content?: unknown };
    if (message.role !== 'user' || typeof message.content !== 'string') continue;
    // The HOST's notice may follow lines about other threads in the same user message.
    const found = [...message.content.matchAll(/^Message #\d+ from ([^:\n]+): /gm)].pop();
    if (found !== undefined) return found[1]!;
  }
  return '?';
};

const makePeer = async (agent: BenchAgent, name: string) => {
  await E(agent.host.host).provideGuest(name, { introducedNames: { [agent.name]: 'agent' } });
  const powers = agent.host.guest(name).powers;
  return (text: string) => E(powers).send('agent', [text], [], []);
};

export interface ThreadsRun {
  threads: { sender: string; reuse: Reuse }[];
  anyThread: Reuse;
}

export const runThreads = async (): Promise<ThreadsRun> => {
  const agent = await startBenchAgent({ persona: 'lal', protocol: 'openai', env: UNBOUNDED_PEERS });
  try {
    const peers = [await makePeer(agent, 'bob'), await makePeer(agent, 'carol')];
    for (let round = 1; round <= ROUNDS; round += 1) {
      await agent.exchange(`ping ${round}`);
      for (const say of peers) {
        const turn = agent.nextTurn();

        await say(`ping ${round}`);

        await turn;
      }
    }
    const chats = agent.server.requests.filter(request => request.normalized !== undefined);
    const bySender = new Map<string, string[]>();
    for (const request of chats) {
      const sender = senderOf(request);
      bySender.set(sender, [...(bySender.get(sender) ?? []), prefixTextOf(request)]);
    }
    return {
      threads: [...bySender].map(([sender, texts]) => ({ sender, reuse: reuseOf(texts) })),
      anyThread: reuseOf(chats.map(prefixTextOf)),
    };
  } finally {
    await agent.stop();
  }
};
harden(runThreads);

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

export const threadsFigure = (run: ThreadsRun): FigureResult => ({
  id: 'threads',
  title: `9. Each thread's prefix reuse: the HOST and two peers in turn, ${ROUNDS} rounds`,
  rows: [
    ...run.threads.flatMap(({ sender, reuse }): FigureRow[] => [
      {
        label: `bytes reusable from the thread's previous request (${sender})`,
        measured: `${percent(reuse.reusable)} over ${reuse.requests} requests`,
        target: `≥ ${percent(REUSE_TARGET)}`,
        verdict: judged(reuse.reusable >= REUSE_TARGET),
      },
      {
        label: `  requests that rewrote the thread's beginning (${sender})`,
        measured: `${reuse.rewrites} of ${reuse.requests - 1}`,
        target: '≤ 1 in 4',
        verdict: judged(reuse.rewrites <= REWRITE_SHARE * (reuse.requests - 1)),
      },
    ]),
    {
      label: '  from the previous request, whatever its thread',
      measured: `${percent(run.anyThread.reusable)} over ${run.anyThread.requests} requests`,
      target: '',
      verdict: 'info',
    },
  ],
  data: { run },
  notes: [
    "a peer's turn is built from its own thread, the HOST's from every turn (src/history/threads.ts): each thread's requests extend its previous one, so a cache that keeps several prefixes (OpenAI's, Anthropic's, llama.cpp's slots) serves each thread; one that keeps a single prefix serves only runs of one thread.",
  ],
});
harden(threadsFigure);

export interface HostWait {
  flood: number;
  /** The peer's model requests made after the HOST's send and before the HOST's first. */
  peerRequestsBefore: number;
  /** The HOST's send → its first model request (ms). */
  toRequestMs: number;
  /** The model's answer (its first request received; the double answers at once) → the reply in the HOST's inbox (ms). */
  toAnswerMs: number;
}

const hostWait = async (flood: number): Promise<HostWait> => {
  const agent = await startBenchAgent({ persona: 'lal', protocol: 'openai', env: UNBOUNDED_PEERS });
  try {
    const bob = await makePeer(agent, 'bob');
    for (let index = 1; index <= flood; index += 1) {
      await bob(`flood ${index}`);
    }
    const chats = () => agent.server.requests.filter(request => request.normalized !== undefined);
    const before = chats().length;
    const sentAt = await agent.send('the HOST asks: ping');
    await agent.host.waitForMessage(
      message => message.type === 'package' && message.strings.join('') === 'pong',
      { timeoutMs: 120_000 },
    );
    const answeredAt = performance.now();
    const all = chats();
    const hostAt = all.findIndex(request => senderOf(request) === 'HOST');
    const first = all[hostAt]!;
    return {
      flood,
      peerRequestsBefore: Math.max(0, hostAt - before),
      toRequestMs: first.receivedAt - sentAt,
      toAnswerMs: answeredAt - first.receivedAt,
    };
  } finally {
    await agent.stop();
  }
};

export const runHostWait = async (): Promise<HostWait[]> => {
  const waits: HostWait[] = [];

  for (const flood of FLOODS) waits.push(await hostWait(flood));
  return waits;
};
harden(runHostWait);

export const hostWaitFigure = (waits: readonly HostWait[]): FigureResult => ({
  id: 'host-wait',
  title: "10. The HOST's wait behind a peer's flood",
  rows: waits.flatMap((wait): FigureRow[] => [
    {
      label: `peer requests before the HOST's (${wait.flood} queued)`,
      measured: String(wait.peerRequestsBefore),
      target: '≤ 1 (the one under way)',
      verdict: judged(wait.peerRequestsBefore <= 1),
    },
    {
      label: `  send → the HOST's first request; model's answer → reply (${wait.flood} queued)`,
      measured: `${wait.toRequestMs.toFixed(0)} ms; ${wait.toAnswerMs.toFixed(0)} ms`,
      target: `answer ≤ ${ANSWER_TARGET_MS} ms`,
      verdict: judged(wait.toAnswerMs <= ANSWER_TARGET_MS),
    },
  ]),
  data: { waits },
  notes: [
    "the peer's messages are sent one after another, the HOST's right after them, so it is behind them in the mail stream; the model double answers at once. A turn for another sender taken from a backlog waits for the stream to go quiet (src/serving/follow-agent-mail.ts), so the HOST's message, once it arrives, is taken next.",
  ],
});
harden(hostWaitFigure);
