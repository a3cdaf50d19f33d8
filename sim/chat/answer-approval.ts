/**
 * Answering an agent's request to call a tool (./approvals.ts): approving
 * it (resolving the request, with any value, is the approval), and the short
 * answers typed at the prompt while one waits: y (yes), n (no), a (always
 * for this tool, kept in the state folder), each a whole line of its own,
 * on a terminal as piped, so no answer is given by accident: a line that
 * merely starts with y, n or a is a message (docs/behaviour.md 10.4).
 */
import { E } from '@endo/far';
import type { HostPowers } from '../mail-host/index.js';
import type { Approvals } from './approvals.js';
import type { HostInbox } from './host-inbox.js';
import type { Screen } from './screen.js';

/**
 * What each short answer does, in the one wording the approval prompt (./host-inbox.ts) and
 * /help's `y, n, a` row (./commands.ts) use, README's example too (test/sim-kept-approvals.test.ts):
 * `(its default: a answers always, --yes asks about none)` was hard to read (issue 45, trial 12).
 */
export const answersDo = (tool: string): string =>
  `y runs it · n refuses it · a runs it and ${tool}'s later calls without asking`;
harden(answersDo);

/** Approves request #number; it then leaves the HOST's inbox. */
export const approveRequest = async (host: HostPowers, number: bigint): Promise<void> => {
  await E(host).storeValue(harden('approved'), 'approved');
  await E(host).resolve(number, 'approved');
  await Promise.resolve(E(host).dismiss(number)).catch(() => {});
};
harden(approveRequest);

/** The latest request for approval of a tool call still waiting for an answer, if any. */
const approvalWaiting = (
  inbox: Pick<HostInbox, 'pendingProposals' | 'pendingKind'>,
): bigint | undefined =>
  inbox
    .pendingProposals()
    .filter(each => inbox.pendingKind(each) === 'approval')
    .at(-1);

/**
 * The requests each inbox's person was told still wait (message numbers are never used twice):
 * said once, not at every line typed while one waits.
 */
const reminded = new WeakMap<HostInbox, Set<bigint>>();

/** True the first time only for request #number of this inbox. */
const firstReminder = (inbox: HostInbox, number: bigint): boolean => {
  const told = reminded.get(inbox) ?? new Set<bigint>();
  reminded.set(inbox, told);
  if (told.has(number)) return false;
  told.add(number);
  return true;
};

const ANSWERS: Readonly<Record<string, 'yes' | 'no' | 'always'>> = harden({
  y: 'yes',
  yes: 'yes',
  n: 'no',
  no: 'no',
  a: 'always',
  always: 'always',
});

/**
 * Whether `answerAtPrompt` takes the line as an answer (it is not mailed): y, n, a (or yes, no,
 * always) while an approval waits, and a letter when none does. For where the line is shown
 * (./typed-lines.ts): an answer is not a message waiting for a turn.
 */
export const isAnswerAtPrompt = (
  text: string,
  inbox: Pick<HostInbox, 'pendingProposals' | 'pendingKind'>,
): boolean => {
  const typed = text.trim().toLowerCase();
  if (ANSWERS[typed] === undefined) return false;
  return approvalWaiting(inbox) !== undefined || typed.length === 1;
};
harden(isAnswerAtPrompt);

/**
 * A line that is a short answer while a request for approval waits (the
 * whole line, case and spaces aside): answers the latest one and returns
 * true. When none waits, a letter (y, n, a) is an answer come late, not a
 * word for the agent: the person is told that nothing waits and it returns
 * true; a word (yes, no, always) is then a message, as an answer to a
 * question the agent asked in its reply would be. Any other line returns
 * false (it is a message); while a request waits, the person is told once
 * that it still does, and how to answer it.
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
  const { host, inbox, approvals, screen } = context;
  const number = approvalWaiting(inbox);
  if (answer === undefined) {
    if (number !== undefined && firstReminder(inbox, number)) {
      const tool = inbox.pendingTool(number) ?? 'this tool';
      screen.print(
        'note',
        `approval request #${number} still waits (that line went to ${context.guestName} as a message): answer it with a line of its own, y, n or a (always for ${tool}), then Enter`,
      );
    }
    return false;
  }
  if (!isAnswerAtPrompt(text, inbox)) return false;
  if (number === undefined) {
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
