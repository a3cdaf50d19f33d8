/**
 * An agent at f0a46042a with an eval-proposal pending, as the mailbox tests
 * need it (the daemon cannot reload a mailbox that holds one): the model's
 * two steps that propose `6 * 7` and end the turn quietly, and the turn that
 * makes the proposal.
 */
import { expect } from 'vitest';
import { callTool, say, type Step } from './scripted-provider.js';
import { waitForMessage, type AgentRun, type Message } from './agent-harness.js';

/** The model proposes `6 * 7`, its result kept as `resultName`, then says nothing more. */
export const proposeSixTimesSeven = (resultName = 'answer'): Step[] => [
  callTool('evaluate', { source: '6 * 7', codeNames: [], petNamePaths: [], resultName }),
  say(''),
];

/** Asks the agent to compute; HOST's copy of the proposal once the agent's turn has ended. */
export const proposalPending = async (run: AgentRun): Promise<Message> => {
  await run.send('please compute');
  const proposal = await waitForMessage(
    run.host,
    (message: Message) => message.type === 'eval-proposal-reviewer',
  );
  await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
  return proposal;
};
