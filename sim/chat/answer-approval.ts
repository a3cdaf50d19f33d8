/**
 * Answering an agent's request to call a tool (./approvals.ts): approving
 * it (resolving the request, with any value, is the approval), and the short
 * answers typed at the prompt while one waits: y (yes), n (no), a (always
 * for this tool, kept in the state folder).
 */
import { E } from '@endo/far';
import type { HostPowers } from '../mail-host/index.js';
import type { Approvals } from './approvals.js';
import type { HostInbox } from './host-inbox.js';
import type { Screen } from './screen.js';

/** Approves request #number; it then leaves the HOST's inbox. */
export const approveRequest = async (host: HostPowers, number: bigint): Promise<void> => {
  await E(host).storeValue(harden('approved'), 'approved');
  await E(host).resolve(number, 'approved');
  await Promise.resolve(E(host).dismiss(number)).catch(() => {});
};
harden(approveRequest);

/** The latest request for approval of a tool call still waiting for an answer, if any. */
export const approvalWaiting = (
  inbox: Pick<HostInbox, 'pendingProposals' | 'pendingKind'>,
): bigint | undefined =>
  inbox
    .pendingProposals()
    .filter(each => inbox.pendingKind(each) === 'approval')
    .at(-1);
harden(approvalWaiting);

const ANSWERS: Readonly<Record<string, 'yes' | 'no' | 'always'>> = harden({
  y: 'yes',
  yes: 'yes',
  n: 'no',
  no: 'no',
  a: 'always',
  always: 'always',
});

/**
 * A line that is a short answer while a request for approval waits: answers
 * the latest one and returns true. When none waits, a letter (y, n, a) is
 * the prompt's key pressed late, not a word for the agent: the person is
 * told that nothing waits and it returns true; a word (yes, no, always) is
 * then a message, as an answer to a question the agent asked in its reply
 * would be. Any other line returns false (it is a message).
 */
export const answerAtPrompt = async (
  text: string,
  context: {
    host: HostPowers;
    inbox: HostInbox;
    approvals: Approvals;
    screen: Screen;
    guestName: string;
  },
): Promise<boolean> => {
  const typed = text.trim().toLowerCase();
  const answer = ANSWERS[typed];
  if (answer === undefined) return false;
  const { host, inbox, approvals, screen } = context;
  const number = approvalWaiting(inbox);
  if (number === undefined) {
    if (typed.length > 1) return false;
    const proposal = inbox.pendingProposals().at(-1);
    const say = `write the word (yes, no) to say it to ${context.guestName}`;
    screen.print(
      'note',
      proposal === undefined
        ? `Nothing is waiting for your answer: y, n and a answer a tool call that asks for approval; ${say}.`
        : `No tool call is waiting for approval (y, n and a answer those); ${inbox.pendingKind(proposal) === 'code' ? 'request to run code' : 'eval-proposal'} #${proposal} waits for /grant ${proposal} or /reject ${proposal}; ${say}.`,
    );
    return true;
  }
  const tool = inbox.pendingTool(number);
  inbox.forget(number);
  if (answer === 'no') {
    await E(host).reject(number, 'Refused by the host');
    await Promise.resolve(E(host).dismiss(number)).catch(() => {});
    screen.print('note', `refused #${number}`);
    return true;
  }
  if (answer === 'always' && tool !== undefined) approvals.allowAlways(tool);
  await approveRequest(host, number);
  screen.print(
    'note',
    answer === 'always' && tool !== undefined
      ? `approved #${number}; ${tool} runs without asking from now on (kept in ${approvals.path})`
      : `approved #${number}`,
  );
  return true;
};
harden(answerAtPrompt);
