/**
 * A call the HOST approved, stopped while it runs by the agent's cancellation (Ctrl-C in the
 * simulator: the agent is cancelled and made again from its store), is kept as what it was:
 * stopped by that cancellation, never "UNKNOWN … running when I restarted", which is for a run
 * that ended without a word; and, the HOST having stopped it, kept in the conversation for the
 * next turn without a model call of its own, and in the searchable history as every turn is (docs/behaviour.md 3.10,
 * 3.11, 6.7, 10.2; issue 45). Under lockdown, through
 * make() and E(), with the daemon double; the approval's record is pending-asks.ts's.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import type { AgentRun } from './support/agent-harness.js';
import { guest, hostRequests, startWith } from './support/agent-observers.js';
import { askRecall } from './support/recall-steps.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** The "Tool policy" section's lines of help(). */
const policyLines = async (run: AgentRun): Promise<string[]> => {
  const section = /Tool policy:\n((?:- .*\n?)*)/.exec(await run.help());
  return (section?.[1] ?? '').split('\n').filter(line => line !== '');
};

const pendingIds = async (run: AgentRun): Promise<string[]> =>
  (
    JSON.parse((await guest(run).lookup(['agent-state', 'memory'])) as string) as {
      asks?: { pending: { id: string }[] };
    }
  ).asks?.pending.map(ask => ask.id) ?? [];

/** A call of the slow tool the HOST approved, running when the agent is cancelled (Ctrl-C) and made again. */
const stopApprovedCall = async (restartSteps: Step[] = []) => {
  const host = makeMailHost();
  await E(host.host).makeUnconfined(
    'worker-tool',
    new URL('./support/misbehaving-tool.ts', import.meta.url).href,
    { resultName: 'slow-tool', env: { TOOL_NAME: 'slow', MODE: 'hang' } },
  );
  const { run, origin } = await startWith(start, callTool('slow', {}), {
    host,
    persona: 'fae',
    introducedNames: { 'slow-tool': 'slow-tool' },
    env: { LAL_TOOLS_APPROVE: 'slow', LAL_TRUSTED_SENDERS: 'alice' },
  });
  const [asked] = await hostRequests(run);
  await E(run.host.host).storeValue(harden('yes'), 'yes');
  await E(run.host.host).resolve(asked!.number, 'yes');
  await expect.poll(() => policyLines(run)).toContain('- approved by HOST, running: a1: slow {}');
  await run.restartAgent(restartSteps, Error('the host stopped the turn (Ctrl-C)'));
  await expect.poll(() => pendingIds(run)).toEqual([]);
  return { run, origin };
};

describe('an approved call stopped by the agent’s cancellation', () => {
  test('is in the searchable history, as every turn is: recall finds it', async () => {
    const { run } = await stopApprovedCall();
    const recalled = await askRecall(run, 'slow cancelled');
    expect(recalled.found.map(found => found.message)).toContainEqual(
      expect.stringMatching(/^CANCELLED: HOST approved the call slow \{\}/),
    );
  });

  test('is kept as CANCELLED with the reason, by the run made again, without a model call (the HOST stopped it), not UNKNOWN after a restart', async () => {
    const requests: string[][] = [];
    // Told, and kept told: the run made again settled it...
    const { run, origin } = await stopApprovedCall([
      request => {
        requests.push(request.messages.map(message => message.content));
        return callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: ['ok'],
        });
      },
    ]);
    // ...without asking the model (docs/behaviour.md 10.2: Ctrl-C stops, it does not start a turn).
    expect(requests).toEqual([]);
    // The next turn knows: the call and how it ended are in its history, with the reason.
    await run.send('what became of it?');
    await run.reply('ok');
    expect(requests).toHaveLength(1);
    const kept = requests[0]!.find(content => content.startsWith('CANCELLED: '));
    expect(kept).toMatch(
      /^CANCELLED: HOST approved the call slow \{\} \(approval a1\), and it was running when I was cancelled \(the host stopped the turn \(Ctrl-C\)\): the call was stopped before it answered, so it did not finish\.\n/,
    );
    expect(requests[0]!.join('\n')).not.toMatch(/UNKNOWN|restarted/);
    expect(origin()).toBe(1);
  });
});
