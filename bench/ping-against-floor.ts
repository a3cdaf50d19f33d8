/**
 * A ping to the agent beside a ping to the in-process floor (./model-echo.ts),
 * both guests of one mail host asking one model server double, pings
 * interleaved. Each ping is stamped on the double's clocks: sent by the host,
 * delivered into the guest's inbox, its model request received and answered
 * by the server, and the guest's `reply` call reaching its powers.
 */
import { STATE_DIRECTORY } from '../src/daemon/own-names.js';
import { E } from '@endo/far';
import { performance } from 'node:perf_hooks';
import { makeMailHost, type DaemonProfile, type MailHost } from '../sim/mail-host/index.js';
import type { ModelServer } from '../sim/model-server/index.js';
import { startBenchAgent, type BenchAgent } from './bench-agent.js';
import { tick } from './exchange.js';
import { startModelEcho } from './model-echo.js';
import { median } from './stats.js';

const WARMUP = 5;
// Between pings, as a person's pings are apart: each starts on a quiet process.
const SETTLE_MS = 5;

/** Lets what a guest's last calls set going (the daemon's answers, name changes it follows) settle. */
export const settleAfterPing = () =>
  new Promise<void>(resolve => {
    setTimeout(resolve, SETTLE_MS);
  });
harden(settleAfterPing);

/** One ping's stamps, all performance.now(). */
interface PingStamps {
  sentAt: number;
  deliveredAt: number;
  requestAt: number;
  answeredAt: number;
  replyAt: number;
  requestBytes: number;
}

/** The medians of one guest's pings, in ms. */
/** Sends `text` to the floor and waits for its reply to reach its powers. */
export const pingFloor = async (agent: BenchAgent, floor: string, text: string): Promise<void> => {
  let stop: () => unknown = () => undefined;
  const replied = new Promise<void>(resolve => {
    stop = agent.host.traceCalls(floor, method => {
      if (method === 'reply') resolve();
    });
  });
  try {
    await E(agent.host.host).send(floor, [text], [], []);
    await replied;
  } finally {
    stop();
  }
};
harden(pingFloor);

export interface PingMedians {
  /** Sent → the reply reaching the guest's powers. */
  toReply: number;
  /** Delivered into the inbox → the model request at the server. */
  toModel: number;
  /** The model request received → its answer finished: the double's own time, longer for a longer request. */
  inServer: number;
  /** The model's answer finished → the reply reaching the guest's powers. */
  answerToReply: number;
  requestBytes: number;
}

const mediansOf = (pings: readonly PingStamps[]): PingMedians => ({
  toReply: median(pings.map(ping => ping.replyAt - ping.sentAt)),
  toModel: median(pings.map(ping => ping.requestAt - ping.deliveredAt)),
  inServer: median(pings.map(ping => ping.answeredAt - ping.requestAt)),
  answerToReply: median(pings.map(ping => ping.replyAt - ping.answeredAt)),
  requestBytes: median(pings.map(ping => ping.requestBytes)),
});

/**
 * Pings guest `name` and stamps it. Nothing polls while a ping is on its way (the reply is
 * awaited through the trace), so both guests are timed alike; `settled` then waits until
 * the guest is done with the ping (the agent: its memory saved), off the measured path.
 */
const stampPing = async (
  host: MailHost,
  server: ModelServer,
  name: string,
  text: string,
  settled: (memoryAtReply: number) => Promise<void>,
): Promise<PingStamps> => {
  let deliveredAt = Number.NaN;
  let replyAt = Number.NaN;
  let memoryAtReply = 0;
  const stopDeliveries = host.traceDeliveries(name, () => {
    if (Number.isNaN(deliveredAt)) deliveredAt = performance.now();
  });
  let stopCalls: () => unknown = () => undefined;
  const replied = new Promise<void>(resolve => {
    stopCalls = host.traceCalls(name, method => {
      if (method !== 'reply' || !Number.isNaN(replyAt)) return;
      replyAt = performance.now();
      memoryAtReply = host.storedBytes(name)[STATE_DIRECTORY] ?? 0;
      resolve();
    });
  });
  const before = server.requests.length;
  try {
    const sentAt = performance.now();
    await E(host.host).send(name, [text], [], []);
    await replied;
    const request = server.requests.slice(before).find(each => each.normalized !== undefined);
    await settled(memoryAtReply);
    await settleAfterPing();
    return {
      sentAt,
      deliveredAt,
      requestAt: request?.receivedAt ?? Number.NaN,
      answeredAt: request?.answeredAt ?? Number.NaN,
      replyAt,
      requestBytes: request?.bytes ?? Number.NaN,
    };
  } finally {
    stopDeliveries();
    stopCalls();
  }
};

/**
 * Waits until the agent has written its memory after the reply (its last step for a message).
 * `atReply` is what it had written when the reply came: read then, in the trace, since the
 * serving loop saves each message's memory before it takes the next, no earlier save is pending.
 */
const memorySaved = (host: MailHost, name: string) => async (atReply: number) => {
  const deadline = performance.now() + 30_000;
  while ((host.storedBytes(name)[STATE_DIRECTORY] ?? 0) <= atReply) {
    if (performance.now() > deadline)
      throw Error('bench: the agent did not save its memory within 30 s');
    // Polled after the reply: off the measured path.
    await tick();
  }
};

export const pingAgainstFloor = async (
  setting: { profile: DaemonProfile; persona: 'lal' | 'fae' },
  pings: number,
): Promise<{ agent: PingMedians; floor: PingMedians }> => {
  const agent = await startBenchAgent({
    persona: setting.persona,
    host: makeMailHost({ profile: setting.profile }),
  });
  const { host, server } = agent;
  const floor = await startModelEcho(host, server, setting.persona);
  try {
    const stamps = { agent: [] as PingStamps[], floor: [] as PingStamps[] };
    for (let index = 0; index < WARMUP + pings; index += 1) {
      // Alternating which goes first, so neither always follows the other's leftover work.
      const order = index % 2 === 0 ? (['agent', 'floor'] as const) : (['floor', 'agent'] as const);
      for (const which of order) {
        const text = `ping ${index}`;
        const ping = await (which === 'agent'
          ? stampPing(host, server, agent.name, text, memorySaved(host, agent.name))
          : stampPing(host, server, floor.name, text, async () => {}));
        if (index >= WARMUP) stamps[which].push(ping);
      }
      await agent.forget();
    }
    return { agent: mediansOf(stamps.agent), floor: mediansOf(stamps.floor) };
  } finally {
    await floor.stop();
    await agent.stop();
  }
};
harden(pingAgainstFloor);
