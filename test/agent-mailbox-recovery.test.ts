/**
 * The daemon's proposal bug: after a restart, a mailbox that holds an
 * eval-proposal fails to load ("Unknown message formula type"). The agent
 * does not stop silently: it tells HOST once, in plain words, what happened
 * and what to do (or writes that to its log when it cannot send), and
 * follows its mail again with a backoff.
 */
import { describe, expect, test } from 'vitest';
import { asMessages, replyStep, textOf, type AgentRun } from './support/agent-harness.js';
import { proposalPending, proposeSixTimesSeven } from './support/pending-proposal.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const REPORT =
  /^I cannot follow my mail: the Endo daemon fails to load a mailbox \(Unknown message formula type\)/;

const hostTexts = async (run: AgentRun) =>
  asMessages(await run.host.host.listMessages()).map(textOf);
const reportsTo = async (run: AgentRun) => (await hostTexts(run)).filter(text => REPORT.test(text));

describe('following mail when the daemon fails to load a mailbox', () => {
  test('one plain message to HOST, then the agent follows again and keeps serving new mail', async () => {
    const run = await start({
      steps: [replyStep('pong'), replyStep('pong again')],
      // Following fails at start, and at the first retry.
      prepare: async (host, name) => host.failFollowing(name, 2),
    });
    const report = await run.reply(REPORT);
    expect(textOf(report)).toMatch(/grantEvaluate\(N\)/);
    expect(textOf(report)).toMatch(/endo dismiss N/);
    expect(textOf(report)).toMatch(/Recovering from a pending eval-proposal/);
    expect(textOf(report)).toMatch(/I keep trying to follow my mail meanwhile\.$/);

    await run.send('ping');
    await run.reply('pong');
    await run.send('ping again');
    await run.reply('pong again');
    expect(await reportsTo(run)).toHaveLength(1);
    expect(
      run.logs.filter(line =>
        line.startsWith('following mail failed: Unknown message formula type'),
      ),
    ).toHaveLength(1);
    expect(run.logs).toContain('following mail again after 2 failed attempt(s)');
  });

  test('when following breaks while a proposal is pending, the message names that proposal', async () => {
    const run = await start({ steps: [...proposeSixTimesSeven(), replyStep('still here')] });
    await proposalPending(run);

    run.host.failFollowing(run.name, 1);
    const report = await run.reply(REPORT);
    expect(textOf(report)).toContain('pending: the eval-proposal I made: "6 * 7"');
    await run.send('are you there?');
    await run.reply('still here');
    expect(await reportsTo(run)).toHaveLength(1);
  });

  test('when its own mailbox does not load it cannot send, so the same words go to its log, once', async () => {
    const run = await start({ steps: proposeSixTimesSeven() });
    const proposal = await proposalPending(run);
    // HOST dismisses its copy without settling it: the agent's own copy stays, so its mailbox will not load.
    await run.host.host.dismiss(proposal.number);
    const logged = run.logs.length;
    await run.restart();

    await expect
      .poll(() => run.logs.slice(logged).filter(line => REPORT.test(line)).length)
      .toBe(1);
    expect(
      run.logs
        .slice(logged)
        .filter(line => line.startsWith('the agent stopped: Unknown message formula type')),
    ).toHaveLength(1);
    expect(run.logs.slice(logged).find(line => REPORT.test(line))).toMatch(
      /I stopped; the daemon makes me again, and I wait longer each time before I try \(at most 5 minutes\), so it is not kept reviving me\.$/,
    );
    expect(await reportsTo(run)).toHaveLength(0);
  });
});
