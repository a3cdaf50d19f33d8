/**
 * What a warm ping costs the daemon (issue 46, point 8: in a real daemon each
 * call on the guest's powers is a round trip, and on the newest daemon a
 * database write): the calls any caplet that answers mail makes (the reply,
 * the message's dismissal and its own copy's), and the agent's memory and
 * its searchable history written once each; nothing else, on both daemon
 * profiles, for Lal and Fae. And the name-change messages a ping sends the
 * agent's own follower of its names: none, since the memory lies in a
 * directory nobody follows (memory version 12; on main before it, two a
 * ping: the memory's name removed and added). Counted in the daemon double
 * through make() (docs/benchmark.md, "Live progress and a ping, in a real daemon").
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import type { DaemonProfile } from '../sim/mail-host/index.js';
import { ANSWER_FIRST_MS } from '../src/serving/serving-loop.js';
import { replyStep, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const PINGS = 3;

/** The calls on the guest's powers, as they come. */
const traced = (run: AgentRun) => {
  const calls: string[] = [];
  run.host.traceCalls(run.name, method => calls.push(method));
  return calls;
};

/**
 * Waits until the last ping's work is finished: the memory's write, which carries the history's
 * open chunk, is the last thing a piece of work does, after its reply.
 */
const untilSaved = (calls: string[]) =>
  expect
    .poll(() => calls.slice(calls.lastIndexOf('reply')).filter(call => call === 'storeValue'))
    .toHaveLength(1);

/** Both daemon profiles, Lal and Fae. */
const AGENTS: [DaemonProfile, 'lal' | 'fae'][] = [
  ['f0a46042a', 'lal'],
  ['f0a46042a', 'fae'],
  ['newest', 'lal'],
  ['newest', 'fae'],
];

/** An agent pinged once (warm), its calls traced; `pings()` sends the warm pings, each saved. */
const warmAgent = async (profile: DaemonProfile, persona: 'lal' | 'fae') => {
  const run = await start({
    profile,
    persona,
    steps: Array.from({ length: PINGS + 1 }, (_, index) => replyStep(`pong ${index}`)),
  });
  const calls = traced(run);
  await run.send('ping 0');
  await run.reply('pong 0');
  await untilSaved(calls);
  const pings = async () => {
    for (let index = 1; index <= PINGS; index += 1) {
      await run.send(`ping ${index}`);
      await run.reply(`pong ${index}`);
      await untilSaved(calls);
    }
  };
  return { run, calls, pings };
};

describe.each(AGENTS)('a warm ping (%s, %s)', (profile, persona) => {
  test('costs the daemon the reply, two dismissals and one write: the memory, which carries the history', async () => {
    const { calls, pings } = await warmAgent(profile, persona);
    calls.length = 0;
    await pings();
    const counts: Record<string, number> = {};
    for (const call of calls) counts[call] = (counts[call] ?? 0) + 1;
    expect(counts).toEqual({ reply: PINGS, dismiss: 2 * PINGS, storeValue: PINGS });
  });
});

describe.each<DaemonProfile>(['f0a46042a', 'newest'])('work that changes nothing (%s)', profile => {
  test('writes nothing: the HOST listing the schedules between two pings costs the daemon no write', async () => {
    const run = await start({ profile, steps: [replyStep('pong'), replyStep('pong again')] });
    const calls = traced(run);
    await run.send('ping');
    await run.reply('pong');
    await untilSaved(calls);
    calls.length = 0;
    // A piece of work of the serving loop, which saves the memory after each.
    expect(await run.schedules()).toMatch(/schedule/i);
    // Served after it: once its writes are done, the listing's are too.
    await run.send('ping again');
    await run.reply('pong again');
    await untilSaved(calls);
    expect(calls.filter(call => call === 'storeValue')).toHaveLength(1);
  });
});

describe.each(AGENTS)(
  "the agent's own follower of its names, over warm pings (%s, %s)",
  (profile, persona) => {
    test('hears nothing: the memory is written where no follower listens (a write over a name in its directory is two messages)', async () => {
      const { run, pings } = await warmAgent(profile, persona);
      const before = run.host.nameChangesSent(run.name);
      await pings();
      expect(run.host.nameChangesSent(run.name) - before).toBe(0);
      // The agent does follow its names (the count is not zero for want of a follower): a name
      // the HOST's side adds is one message to each follower.
      await E(run.host.guest(run.name).powers).storeValue('a probe', 'probe');
      expect(run.host.nameChangesSent(run.name) - before).toBeGreaterThanOrEqual(1);
    });
  },
);

describe.each<DaemonProfile>(['f0a46042a', 'newest'])(
  "a warm ping's memory write (%s)",
  profile => {
    test('comes at least ANSWER_FIRST_MS after the reply: the answer travels first (on main it followed the dismissal at once)', async () => {
      const { run, pings } = await warmAgent(profile, 'lal');
      const at: { method: string; ms: number }[] = [];
      run.host.traceCalls(run.name, method => at.push({ method, ms: performance.now() }));
      await pings();
      const gaps = at.flatMap((call, index) => {
        if (call.method !== 'storeValue') return [];
        const reply = at.slice(0, index).findLast(each => each.method === 'reply');
        return reply === undefined ? [] : [call.ms - reply.ms];
      });
      expect(gaps).toHaveLength(PINGS);
      // A timer fires no sooner than asked (a millisecond's rounding aside).
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(ANSWER_FIRST_MS - 1);
    });
  },
);
