/**
 * No revival storm (docs/behaviour.md 1.7): at f0a46042a a call on powers
 * whose mailbox does not load fails the guest's formula, and the daemon
 * revives PINS, making a pinned agent again at once. The double does the
 * same; the agent waits, longer each time, before it touches its powers
 * again, says so once, and is back at work once its mailbox loads.
 */
import { E } from '@endo/far';
import { describe, expect, test } from 'vitest';
import { replyStep, type AgentRun } from './support/agent-harness.js';
import { makeManualClock } from './support/manual-clock.js';
import { proposalPending, proposeSixTimesSeven } from './support/pending-proposal.js';
import { useAgents } from './support/use-agents.js';
import {
  REVIVAL_FIRST_WAIT_MS,
  REVIVAL_LONGEST_WAIT_MS,
} from '../src/lifecycle/revival-backoff.js';

const { start } = useAgents();

const WAITING = /^the daemon made me again after my mailbox failed to load: I wait 5 s/;
// Far more than a backoff allows in the time it takes: the storm the double plays without one.
const STORM = 12;

/** The help() of the agent's current incarnation (the harness's handle is the first one's). */
const currentHelp = async (run: AgentRun): Promise<string> => {
  const caplet = run.host.caplet(`worker-${run.name}`);
  if (caplet === undefined) return '';
  return E(caplet.value as { help(): string }).help();
};

/** A pinned agent whose own mailbox holds its pending eval-proposal, restarted. */
const pinnedWithPendingProposal = async () => {
  const clock = makeManualClock();
  const run = await start({ clock, steps: proposeSixTimesSeven('a') });
  const proposal = await proposalPending(run);
  // HOST dismisses its copy unsettled: the agent's copy stays, so its mailbox will not load.
  await run.host.host.dismiss(proposal.number);
  const caplet = run.host.caplet(`worker-${run.name}`);
  if (caplet === undefined) throw Error('the agent is not running');
  await E(run.host.host).write(['PINS', `controller-for-${run.name}`], caplet.id);
  return { run, clock };
};

const failedStarts = (help: string) => Number(/at (\d+) start\(s\) in a row/.exec(help)?.[1] ?? 0);

describe('a revived agent whose mailbox does not load (f0a46042a)', () => {
  test('waits before each try, longer each time, and says so once', async () => {
    const { run, clock } = await pinnedWithPendingProposal();
    const before = run.incarnations;
    await run.restart();

    // Either it waits, or the double's revivals pile up: whichever comes first.
    await expect
      .poll(() => run.incarnations - before >= STORM || run.logs.some(line => WAITING.test(line)), {
        timeout: 15_000,
      })
      .toBe(true);
    expect(run.incarnations - before).toBeLessThanOrEqual(2);
    await expect.poll(() => currentHelp(run).then(failedStarts)).toBe(1);
    expect(await currentHelp(run)).toMatch(/I try again in 5 s/);

    // Each wait ends in one try, which fails, and one revival that waits twice as long.
    let wait = REVIVAL_FIRST_WAIT_MS;
    for (let failures = 2; failures <= 4; failures += 1) {
      const incarnations = run.incarnations;
      clock.advance(wait);
      await expect.poll(() => currentHelp(run).then(failedStarts)).toBe(failures);
      expect(run.incarnations).toBe(incarnations + 1);
      wait = Math.min(wait * 2, REVIVAL_LONGEST_WAIT_MS);
      expect(await currentHelp(run)).toMatch(new RegExp(`I try again in ${wait / 1000} s`));
    }
    // Said once: the first stop, its report, the wait; none of the later ones.
    expect(run.logs.filter(line => WAITING.test(line))).toHaveLength(1);
    expect(run.logs.filter(line => line.startsWith('the agent stopped:'))).toHaveLength(1);
    expect(
      run.logs.filter(line => line.startsWith('I cannot follow my mail: the Endo daemon')),
    ).toHaveLength(1);
  });

  test('back at work by itself once its mailbox loads again', async () => {
    const { run, clock } = await pinnedWithPendingProposal();
    await run.restart([replyStep('pong')]);
    await expect.poll(() => run.logs.some(line => WAITING.test(line))).toBe(true);

    // The HOST's recovery (docs/daemon-guide.md "Recovering from a pending eval-proposal").
    run.host.recoverMailbox(run.name);
    clock.advance(REVIVAL_FIRST_WAIT_MS);
    await expect.poll(() => run.logs.includes('my mailbox loads again: back at work')).toBe(true);
    await run.send('ping');
    await run.reply('pong');
    expect(await currentHelp(run)).not.toMatch(/failed to load/);
  });
});
