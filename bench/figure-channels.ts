/**
 * Figure 16 — channels (docs/behaviour.md 11), newest daemon's double:
 * what a message no one addressed to the agent costs at each level
 * (routing requests and their bytes, per message), and a mention's time
 * from the post to the answer in its thread beside an inbox ping's time to
 * its reply, in the same run, against a zero-latency model double.
 * Targets: a mention answered with one main-model call, ≤ 1.1× a ping;
 * observer (only when mentioned): 0 requests for 100 messages.
 */
import { STATE_DIRECTORY } from '../src/daemon/own-names.js';
import type { ChannelPost } from '../src/channels/channel-thread.js';
import { performance } from 'node:perf_hooks';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import type { NormalizedRequest } from '../sim/model-server/index.js';
import { readStream } from '../src/daemon/stream-reader-client.js';
import { startBenchAgent, type BenchAgent } from './bench-agent.js';
import { tick } from './exchange.js';
import { judged, type FigureResult } from './figure.js';
import { median } from './stats.js';

type Far = any;

const ROUNDS = 9;
const UNADDRESSED = 100;
const LEVELS = ['active', 'normal', 'quiet', 'observer'] as const;

const isRouting = (request: NormalizedRequest) =>
  request.messages[0]?.text.startsWith('You decide whether') === true;

/** Resolves with the first post of the channel (so far or to come) that matches. */
const untilPost = async (channel: unknown, match: (post: ChannelPost) => boolean) => {
  const stream = readStream(await E(channel as Far).followMessages());
  try {
    for (;;) {
      const step = await stream.next();
      if (step.done === true) throw new Error('the channel ended');
      if (match(step.value as ChannelPost)) return step.value as ChannelPost;
    }
  } finally {
    void stream.return(undefined);
  }
};

/** The agent's answer with this text: a plain reply, or the edit that finishes its placeholder. */
const answered = (channel: unknown, text: string) =>
  untilPost(channel, post => post.strings.join('') === text);

const setUp = async () => {
  const host = makeMailHost({ profile: 'newest' });
  // Live progress as shipped (LAL_PROGRESS on, LAL_PROGRESS_AFTER_MS 1000) for both.
  const agent = await startBenchAgent({ persona: 'lal', host });
  const admin = await E(host.host as Far).makeChannel('general', 'Alice');
  const [invitation] = (await E(admin).createInvitation('bob')) as [Far];
  const bob = await E(invitation).join('Bob');
  return { host, agent, admin, bob };
};

/** The agent's memory writes so far: the serving loop's last step after every piece of work. */
const savesOf = (agent: BenchAgent) => agent.host.storedBytes(agent.name)[STATE_DIRECTORY] ?? 0;

/** Until the agent has written its memory after `before`: the work under way is finished. */
const untilSaved = async (agent: BenchAgent, before: number) => {
  const deadline = performance.now() + 30_000;
  while (savesOf(agent) <= before) {
    if (performance.now() > deadline)
      throw new Error('bench: the agent did not finish a channel message within 30 s');
    await tick();
  }
};

const isMention = (request: NormalizedRequest) =>
  request.messages.some(message => message.text.includes("The channel's recent messages"));

/**
 * A ping to its reply and a mention to its answer, alternately, ROUNDS each, each begun with
 * the agent idle (the work before it finished), so neither waits for the other's tail.
 */
const timeMentions = async (agent: BenchAgent, admin: unknown, bob: unknown) => {
  const mentions: number[] = [];
  const pings: number[] = [];
  const callsBefore = agent.server.requests.length;
  const seen = new Set<bigint>();
  for (let round = 0; round < ROUNDS; round += 1) {
    const pong = agent.host
      .waitForMessage(
        message =>
          message.type === 'package' &&
          message.from !== agent.host.hostId &&
          message.strings.join('') === 'pong' &&
          !seen.has(message.number),
        { timeoutMs: 10_000 },
      )
      .then(message => {
        seen.add(message.number);
        return performance.now();
      });
    const ping = await agent.exchange(`ping ${round}`);
    pings.push((await pong) - ping.sentAt);
    const saved = savesOf(agent);
    agent.model.push(() => ({ text: `answer ${round}` }));
    const started = performance.now();
    await E(bob as Far).post([`question ${round} @lal`], [], []);
    await answered(admin, `answer ${round}`);
    mentions.push(performance.now() - started);
    await untilSaved(agent, saved);
  }
  const mentionCalls =
    agent.server.requests
      .slice(callsBefore)
      .filter(request => request.normalized !== undefined && isMention(request.normalized)).length /
    ROUNDS;
  return { mentionMs: median(mentions), pingMs: median(pings), mentionCalls };
};

/** Requests and bytes per unaddressed message at a level (each routing request answered "no"). */
const costAt = async (agent: BenchAgent, bob: unknown, level: (typeof LEVELS)[number]) => {
  await E(agent.host.caplet(`worker-${agent.name}`)?.value as Far).channels('level', 'ch-1', level);
  const before = agent.server.requests.length;
  // Each routing request answered "no"; at observer none is made, so none is queued.
  if (level !== 'observer')
    for (let i = 0; i < UNADDRESSED; i += 1) agent.model.push(() => ({ text: 'no' }));
  for (let i = 0; i < UNADDRESSED; i += 1)
    await E(bob as Far).post([`chatter ${level} ${i}`], [], []);
  // A mention after them: answered once every message before it was judged (one lane, in order).
  agent.model.push(() => ({ text: `done ${level}` }));
  await E(bob as Far).post([`@lal done ${level}?`], [], []);
  const admin = await E(agent.host.host as Far).lookup('general');
  await answered(admin, `done ${level}`);
  const requests = agent.server.requests.slice(before).filter(r => r.normalized !== undefined);
  const routing = requests.filter(r => isRouting(r.normalized!));
  return {
    requests: routing.length / UNADDRESSED,
    bytes: routing.reduce((sum, r) => sum + r.bytes, 0) / UNADDRESSED,
  };
};

export const channelsFigure = async (): Promise<FigureResult> => {
  const { host, agent, admin, bob } = await setUp();
  try {
    // Joined on a first mention, told by the chat.
    agent.model.push(() => ({ text: 'joined' }));
    await E(bob).post(['hello @lal'], [], []);
    await host.mentionInChannel('general', 'lal');
    await answered(admin, 'joined');
    const times = await timeMentions(agent, admin, bob);
    const levels: Record<string, { requests: number; bytes: number }> = {};
    for (const level of LEVELS) levels[level] = await costAt(agent, bob, level);
    const ratio = times.mentionMs / times.pingMs;
    return {
      id: 'channels',
      title: '16. Channels: unaddressed messages by level, and a mention beside an inbox ping',
      rows: [
        {
          label: 'mention → answer in its thread (median)',
          measured: `${times.mentionMs.toFixed(1)} ms, ${times.mentionCalls} main-model call(s); ping ${times.pingMs.toFixed(1)} ms; ${ratio.toFixed(2)}×`,
          target: '1 call, ≤ 1.1× a ping',
          verdict: judged(times.mentionCalls === 1 && ratio <= 1.1),
        },
        ...LEVELS.map(level => ({
          label: `${level}: per unaddressed message`,
          measured: `${levels[level]!.requests} requests, ${levels[level]!.bytes.toFixed(0)} bytes`,
          target: level === 'observer' ? `0 (${UNADDRESSED} messages)` : '≤ 1 request',
          verdict: judged(
            level === 'observer' ? levels[level]!.requests === 0 : levels[level]!.requests <= 1,
          ),
        })),
      ],
      data: { ...times, ratio, levels },
      notes: [
        "A mention is timed from the member's post to the agent's answer in its thread (one model call); an inbox ping from the HOST's send to the agent's reply (the turn's first call; a second ends the turn after it). Each starts with the agent idle. Live progress as shipped for both: an answer quicker than LAL_PROGRESS_AFTER_MS (1 s) is one plain reply, with no placeholder.",
        'Routing requests go to the main model here (no LAL_ROUTER_MODEL); each is answered "no".',
      ],
    };
  } finally {
    await agent.stop();
  }
};
harden(channelsFigure);
