/**
 * What a ping allocates (issue 46, point 8): in a real daemon the agent's
 * worker spent 7.1 ms a ping in the garbage collector against the floor's
 * 3.1 ms, and what a process collects is what it allocated. Read here as the
 * bytes the whole process (agent, mail host, model double) allocates while
 * the agent answers pings, beside the same for the in-process floor
 * (./model-echo.ts: one model call through the same provider, then the
 * reply), by V8's sampling heap profiler counting every object, those the
 * collector already freed included (an estimate from one sample every
 * SAMPLE_BYTES). The mail host's and the model double's parts are alike for
 * both, but for what the agent asks more of them (its memory written, a
 * longer request): agent − floor is what a ping to the agent costs more.
 */
import { Session } from 'node:inspector/promises';
import { makeMailHost } from '../sim/mail-host/index.js';
import { startBenchAgent } from './bench-agent.js';
import { startModelEcho } from './model-echo.js';
import { pingFloor, settleAfterPing } from './ping-against-floor.js';

const SAMPLE_BYTES = 1024;
const WARMUP = 10;
// Blocks of pings to each, in turn, so that neither is read only early or only late.
const BLOCKS = 4;

interface SamplingNode {
  selfSize: number;
  children: SamplingNode[];
}

const sampledBytes = (node: SamplingNode): number =>
  node.children.reduce((sum, child) => sum + sampledBytes(child), node.selfSize);

/** Bytes allocated while `run` runs, every object counted (collected ones too). */
const allocatedDuring = async (session: Session, run: () => Promise<void>): Promise<number> => {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLE_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  try {
    await run();
  } catch (error) {
    await session.post('HeapProfiler.stopSampling');
    throw error;
  }
  const { profile } = await session.post('HeapProfiler.stopSampling');
  return sampledBytes(profile.head);
};

export interface AllocationPerPing {
  /** Bytes the process allocated per ping to the agent (LAL_PROGRESS=0, newest), its memory written. */
  agent: number;
  /** The same per ping to the floor, its reply sent. */
  floor: number;
  pings: number;
}

/** `pings` pings to each, after a warm-up, each on a quiet process as in figure 15's pairs. */
export const allocationPerPing = async (pings: number): Promise<AllocationPerPing> => {
  const agent = await startBenchAgent({
    persona: 'lal',
    host: makeMailHost({ profile: 'newest' }),
    env: { LAL_PROGRESS: '0' },
  });
  const floor = await startModelEcho(agent.host, agent.server, 'lal');
  const session = new Session();
  session.connect();
  const pingAgent = async (text: string) => {
    await agent.exchange(text);
  };
  const pingTheFloor = (text: string) => pingFloor(agent, floor.name, text);
  try {
    const block = Math.max(1, Math.round(pings / BLOCKS));
    const each = async (ping: (text: string) => Promise<void>, from: number, count: number) => {
      for (let index = from; index < from + count; index += 1) {
        await ping(`ping ${index}`);
        await settleAfterPing();
        await agent.forget();
      }
    };
    await each(pingAgent, 0, WARMUP);
    await each(pingTheFloor, 0, WARMUP);
    const bytes = { agent: 0, floor: 0 };
    for (let index = 0; index < BLOCKS; index += 1) {
      const from = WARMUP + index * block;
      bytes.agent += await allocatedDuring(session, () => each(pingAgent, from, block));
      bytes.floor += await allocatedDuring(session, () => each(pingTheFloor, from, block));
    }
    const counted = block * BLOCKS;
    return { agent: bytes.agent / counted, floor: bytes.floor / counted, pings: counted };
  } finally {
    session.disconnect();
    await floor.stop();
    await agent.stop();
  }
};
harden(allocationPerPing);
