/**
 * CPU a ping costs in-process, the agent beside the in-process floor
 * (./model-echo.ts), read with process.cpuUsage() over blocks of pings to
 * each in turn (issue 46, point 8; docs/benchmark.md, "CPU a ping in
 * process, and where the agent's excess comes from"). CPU time moves with
 * the machine's load far less than wall time does, so a change to the
 * agent's work can be read on a shared machine. The whole process is counted
 * (agent, mail host, model double), so agent − floor is what a ping to the
 * agent costs more. `CPU_PROFILE=<prefix>` also writes a CPU profile of each
 * block (V8's sampling profiler through the inspector),
 * `<prefix>-agent-<n>.cpuprofile` and `<prefix>-floor-<n>.cpuprofile`.
 *
 *   node dist/bench/cpu-per-ping.js [pings to each, 200 by default]
 */
import '@endo/init';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { makeMailHost } from '../sim/mail-host/index.js';
import { startBenchAgent } from './bench-agent.js';
import { startModelEcho } from './model-echo.js';
import { pingFloor, settleAfterPing } from './ping-against-floor.js';
import { median } from './stats.js';

// Enough for the agent's code to be compiled and optimised: the agent warm, as after hours of pings.
const WARMUP = 30;
const BLOCKS = 8;

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

const fixed = (values: readonly number[]) => values.map(value => value.toFixed(1)).join(' ');

const main = async () => {
  const pings = Number(process.argv[2] ?? 200);
  const profile = process.env.CPU_PROFILE;
  const agent = await startBenchAgent({
    persona: 'lal',
    host: makeMailHost({ profile: 'newest' }),
    env: { LAL_PROGRESS: '0' },
  });
  const floor = await startModelEcho(agent.host, agent.server, 'lal');
  const session = new Session();
  session.connect();
  const each = async (which: 'agent' | 'floor', from: number, count: number) => {
    for (let index = from; index < from + count; index += 1) {
      const text = `ping ${index}`;
      // The agent's exchange ends when its memory is saved: its whole ping is counted.
      if (which === 'agent') await agent.exchange(text);
      else await pingFloor(agent, floor.name, text);
      await settleAfterPing();
      await agent.forget();
    }
  };
  try {
    await each('agent', 0, WARMUP);
    await each('floor', 0, WARMUP);
    const block = Math.max(1, Math.round(pings / BLOCKS));
    const perPing = { agent: [] as number[], floor: [] as number[] };
    if (profile !== undefined) {
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
    }
    for (let index = 0; index < BLOCKS; index += 1) {
      // Blocks in turn, each first every other time: neither is read only early or only late.
      const order = index % 2 === 0 ? (['agent', 'floor'] as const) : (['floor', 'agent'] as const);
      for (const which of order) {
        if (profile !== undefined) await session.post('Profiler.start');
        const before = cpuMs();
        await each(which, WARMUP + index * block, block);
        perPing[which].push((cpuMs() - before) / block);
        if (profile !== undefined) {
          const { profile: taken } = await session.post('Profiler.stop');
          writeFileSync(`${profile}-${which}-${index}.cpuprofile`, JSON.stringify(taken));
        }
      }
    }
    const agentMs = median(perPing.agent);
    const floorMs = median(perPing.floor);
    process.stdout.write(
      `${block * BLOCKS} pings to each, CPU a ping of the whole process (median of ${BLOCKS} blocks): ` +
        `agent ${agentMs.toFixed(2)} ms [${fixed(perPing.agent)}], floor ${floorMs.toFixed(2)} ms ` +
        `[${fixed(perPing.floor)}], agent − floor ${(agentMs - floorMs).toFixed(2)} ms, ` +
        `ratio ${(agentMs / floorMs).toFixed(3)}\n`,
    );
  } finally {
    session.disconnect();
    await floor.stop();
    await agent.stop();
  }
};
await main();
// The stopped caplets' connections keep nothing worth waiting for.
process.exit(0);
