/**
 * Figure 12 — a time of its own: model calls over a simulated day, under a
 * manual clock (no waiting). An idle day with a 30-minute heartbeat and an
 * empty checklist, and with a checklist whose items fall due later, should
 * make no model call at all (heartbeats that burn money while idle are what
 * users of such agents complain of most); a day of hourly reminders should
 * be 24 turns, each run once.
 */
import { makeManualClock } from '../sim/manual-clock.js';
import { startBenchAgent, type BenchAgent } from './bench-agent.js';
import { callTool, done } from './scripted-model.js';
import { judged, type FigureResult } from './figure.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Sets a schedule as the HOST asks: one model turn that calls `schedule`, then ends. */
const setSchedule = async (agent: BenchAgent, args: Record<string, unknown>) => {
  agent.model.push(
    () => callTool('schedule', args),
    request =>
      callTool('reply', { messageNumber: 1, strings: [`set (${request.messages.length})`] }),
  );
  await agent.exchange('please set it');
};

/** Model requests the server received while the clock runs through a day in `step`s. */
const idleDay = async (checklist: Record<string, unknown> | undefined) => {
  const clock = makeManualClock();
  const agent = await startBenchAgent({ persona: 'lal', clock, env: { LAL_HEARTBEAT: '30m' } });
  try {
    if (checklist !== undefined) await setSchedule(agent, checklist);
    const before = agent.server.requests.length;
    for (let step = 0; step < 48; step += 1) clock.advance(30 * MIN);
    // A ping after the day: any turn the day started is served before it (the agent's own work goes first).
    const ping = await agent.exchange('ping');
    return agent.server.requests.length - before - ping.modelCalls;
  } finally {
    await agent.stop();
  }
};

const hourlyDay = async () => {
  const clock = makeManualClock();
  const agent = await startBenchAgent({ persona: 'lal', clock });
  try {
    await setSchedule(agent, { note: 'remind HOST to stretch', every: '1h' });
    const before = agent.server.requests.length;
    let turns = 0;
    for (let hour = 0; hour < 24; hour += 1) {
      agent.model.push(() => callTool('send', { recipient: 'HOST', strings: ['stretch'] }), done);
      const turn = agent.nextTurn();
      clock.advance(HOUR);
      await turn;
      turns += 1;
    }
    return { turns, calls: agent.server.requests.length - before };
  } finally {
    await agent.stop();
  }
};

export const schedulesFigure = async (): Promise<FigureResult> => {
  const empty = await idleDay(undefined);
  const later = await idleDay({ note: 'is the certificate renewed?', every: 'heartbeat 2d' });
  const hourly = await hourlyDay();
  return {
    id: 'schedules',
    title: '12. A time of its own: model calls over a simulated day (manual clock)',
    rows: [
      {
        label: 'idle day, 30-minute heartbeat, empty checklist',
        measured: `${empty} model calls`,
        target: '0',
        verdict: judged(empty === 0),
      },
      {
        label: 'idle day, 30-minute heartbeat, checklist due in 2 days',
        measured: `${later} model calls`,
        target: '0',
        verdict: judged(later === 0),
      },
      {
        label: 'a day of hourly reminders',
        measured: `${hourly.turns} turns, ${hourly.calls} model calls`,
        target: '24 turns',
        verdict: judged(hourly.turns === 24 && hourly.calls === 48),
      },
    ],
    data: {
      idleEmptyCalls: empty,
      idleLaterCalls: later,
      hourlyTurns: hourly.turns,
      hourlyCalls: hourly.calls,
    },
    notes: [
      'A reminder turn is two model calls here: the send to the HOST, then the end of the turn.',
    ],
  };
};
harden(schedulesFigure);
