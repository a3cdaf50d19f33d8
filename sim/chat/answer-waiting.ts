/**
 * The person's answers to what waits for them in HOST's inbox: /grant,
 * /reject, /counter and /dismiss, on an eval-proposal (f0a46042a), a request
 * to run code (the newest daemon, ./code-requests.ts) or a request to
 * approve a tool call (./approvals.ts). Each is answered in its daemon's
 * way, and leaves the inbox once answered.
 */
import { E } from '@endo/far';
import { renderForModel } from '../../src/encoding/render-for-model.js';
import { approveRequest } from './answer-approval.js';
import type { CommandContext } from './run-command.js';
import { tellLostWords } from './lost-words.js';

/** One wording for a number that names nothing the command can act on, whatever the command. */
const notActionable = (number: bigint, what: string): Error =>
  Error(`#${number} is not ${what} in your inbox; /inbox lists your messages`);

/** The proposal a command is about: the one named, or the latest pending one. */
const proposalNumber = (given: bigint | undefined, { inbox, session }: CommandContext): bigint => {
  // The newest daemon has no eval-proposals: code comes as a request there.
  const what =
    session.mailHost.profile === 'newest'
      ? 'request to run code or to call a tool'
      : 'eval-proposal or approval request';
  if (given !== undefined) {
    if (inbox.pendingKind(given) === undefined)
      throw notActionable(given, `an ${what} waiting for an answer`);
    return given;
  }
  const pending = inbox.pendingProposals();
  const latest = pending[pending.length - 1];
  if (latest === undefined) throw Error(`No ${what} is waiting for an answer`);
  return latest;
};

/**
 * An answered proposal leaves HOST's inbox (the daemon cannot reload one that stays), and so
 * does the message that showed the code of an answered request to run code.
 */
const dismissAnswered = async (
  { session, inbox }: CommandContext,
  number: bigint,
): Promise<void> => {
  const shownCode = inbox.codeMessage(number);
  inbox.forget(number);
  for (const each of shownCode === undefined ? [number] : [number, shownCode])
    await Promise.resolve(E(session.mailHost.host).dismiss(each)).catch(() => {});
};

/**
 * /counter on the newest daemon, which has no counter-proposals: the request to run code is
 * refused with the code the HOST would run instead as its reason (the agent may propose it).
 */
const COUNTER_REASON = 'Counter-proposal: the host would run this code instead:';

/**
 * Why the proposal a counter-proposal answers is refused (f0a46042a): the counter answers it,
 * so it is settled, not left pending to be told "not run" at the next start. No code here:
 * the counter-proposal carries it, and the agent is not to propose it twice.
 */
const COUNTERED = 'Countered: the host sent a counter-proposal with other code in its place';

/** Why a proposal or approval request dismissed unanswered was refused, as its agent hears it. */
const DISMISSED = 'The host dismissed it without an answer';

/**
 * A proposal or approval request dismissed unanswered is refused first, so
 * the agent hears that it will not run (and tells whoever asked), as it
 * would hear a rejection; a dismissal alone would leave it waiting.
 */
const refuseDismissed = async ({ session, inbox }: CommandContext, number: bigint) => {
  const kind = inbox.pendingKind(number);
  const shownCode = inbox.codeMessage(number);
  inbox.forget(number);
  if (kind === 'approval' || kind === 'code')
    await E(session.mailHost.host).reject(number, DISMISSED);
  else if (kind === 'proposal') await session.mailHost.rejectProposal(number, DISMISSED);
  if (shownCode !== undefined)
    await Promise.resolve(E(session.mailHost.host).dismiss(shownCode)).catch(() => {});
};

/** `/dismiss n|all`: what waits for an answer is refused first (its agent told), then dismissed. */
export const dismiss = async (number: bigint | 'all', context: CommandContext): Promise<void> => {
  const { session, screen, inbox } = context;
  const { host } = session.mailHost;
  const refused =
    number === 'all'
      ? inbox.pendingProposals()
      : inbox.pendingKind(number) === undefined
        ? []
        : [number];
  if (number !== 'all') {
    const messages = await E(host).listMessages();
    if (!messages.some(message => message.number === number))
      throw notActionable(number, 'a message');
  }
  for (const each of refused) await refuseDismissed(context, each);
  if (number === 'all') await E(host).dismissAll();
  else {
    await E(host).dismiss(number);
    inbox.forget(number);
  }
  screen.print(
    'note',
    number === 'all' ? 'dismissed every message' : `dismissed #${number}`,
    // Said only when a proposal or request was among them: the agent is told it was refused.
    ...(refused.length === 0
      ? []
      : [`(${refused.map(each => `#${each}`).join(', ')} refused: ${session.guestName} is told)`]),
  );
};
harden(dismiss);

/** `/grant [n]`: runs an eval-proposal, or resolves a request (to run code, or to call a tool). */
export const grant = async (given: bigint | undefined, context: CommandContext): Promise<void> => {
  const { session, screen, inbox } = context;
  const { host } = session.mailHost;
  const number = proposalNumber(given, context);
  context.presenter.touch();
  const kind = inbox.pendingKind(number);
  if (kind === 'proposal') {
    const result = await E(host).grantEvaluate(number);
    screen.print('note', `granted #${number} →`, await renderForModel(result));
    await dismissAnswered(context, number);
    return;
  }
  const shownCode = inbox.codeMessage(number);
  inbox.forget(number);
  await approveRequest(host, number);
  if (shownCode !== undefined) await Promise.resolve(E(host).dismiss(shownCode)).catch(() => {});
  screen.print(
    'note',
    kind === 'code'
      ? `granted #${number}: ${session.guestName} runs the code now`
      : `approved #${number}`,
  );
};
harden(grant);

/** `/reject [n] [reason]`: refuses it; the agent hears the reason. */
export const reject = async (
  given: bigint | undefined,
  reason: string | undefined,
  context: CommandContext,
): Promise<void> => {
  const { session, screen, inbox } = context;
  const number = proposalNumber(given, context);
  context.presenter.touch();
  const kind = inbox.pendingKind(number);
  if (kind === 'approval')
    await E(session.mailHost.host).reject(number, reason ?? 'Refused by the host');
  else if (kind === 'code')
    await E(session.mailHost.host).reject(number, reason ?? 'Rejected by the host');
  else await session.mailHost.rejectProposal(number, reason ?? 'Rejected by the host');
  screen.print('note', `rejected #${number}${reason === undefined ? '' : `: ${reason}`}`);
  if (reason !== undefined) await tellLostWords(context, number, { reason });
  await dismissAnswered(context, number);
};
harden(reject);

/** `/counter <n> <source>`: other code, as a counter-proposal, or on the newest daemon as the refusal's reason. */
export const counter = async (
  number: bigint,
  source: string,
  context: CommandContext,
): Promise<void> => {
  const { session, screen, inbox } = context;
  const kind = inbox.pendingKind(number);
  if (kind === 'code') {
    context.presenter.touch();
    await E(session.mailHost.host).reject(number, `${COUNTER_REASON}\n${source}`);
    screen.print(
      'note',
      `sent a counter-proposal for #${number} (this daemon has none: the request is refused with your code as the reason, and ${session.guestName} may propose it)`,
    );
    await tellLostWords(context, number, { counter: source });
  } else if (kind === 'proposal') {
    context.presenter.touch();
    // Refused first, so the agent hears the outcome of its own proposal before the code it is
    // asked to consider instead.
    await session.mailHost.rejectProposal(number, COUNTERED);
    await session.mailHost.counterPropose(number, { source });
    screen.print('note', `sent a counter-proposal for #${number}, which answers it`);
  } else
    throw notActionable(
      number,
      session.mailHost.profile === 'newest'
        ? 'a request to run code waiting for an answer'
        : 'an eval-proposal waiting for an answer',
    );
  await dismissAnswered(context, number);
};
harden(counter);
