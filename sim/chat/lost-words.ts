/**
 * The words of the person's answer, for an agent that cannot read them from
 * the answer. The agent hears a refusal's reason (or the code of a
 * counter-proposal on the newest daemon) through the promise it holds while
 * it waits; one made again since it asked (a later run, or after Ctrl-C)
 * learns only how its request was settled, from its own copy of it
 * (src/asks/pending-asks.ts), as it would after a daemon restart. So those
 * words go to it as a message from HOST, saying what they answer.
 */
import { E } from '@endo/far';
import { readCodeForHost } from '../../src/asks/host-approved-evaluation.js';
import type { MessageRecord } from '../mail-host/index.js';
import type { CommandContext } from './run-command.js';
import { packageText } from './package-text.js';

const ASKED_CHARS = 200;

const cut = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > ASKED_CHARS ? `${flat.slice(0, ASKED_CHARS - 1)}…` : flat;
};

/** What the agent asked, in its own terms: the code it asked to run, or its request's words. */
const askedFor = (asked: MessageRecord, codeShown: MessageRecord | undefined): string => {
  if (asked.type === 'eval-proposal-reviewer') return `to run this code: ${cut(asked.source)}`;
  const code =
    codeShown?.type === 'package'
      ? readCodeForHost(packageText(codeShown.strings, codeShown.names))
      : undefined;
  if (code !== undefined) return `to run this code: ${cut(code)}`;
  return asked.type === 'request'
    ? `this: "${cut(asked.description)}"`
    : `message #${asked.number}`;
};

/**
 * Before the answered message leaves HOST's inbox: when the agent now running did not ask it,
 * it is sent `words` (a reason, or the code HOST would run instead), and the person is told so.
 */
export const tellLostWords = async (
  { session, screen, inbox }: Pick<CommandContext, 'session' | 'screen' | 'inbox'>,
  number: bigint,
  words: { reason: string } | { counter: string },
): Promise<void> => {
  const { host } = session.mailHost;
  const messages = await E(host).listMessages();
  const asked = messages.find(message => message.number === number);
  if (asked === undefined || Date.parse(asked.date) >= session.agentSince) return;
  const shownBy = inbox.codeMessage(number);
  const codeShown = messages.find(message => message.number === shownBy);
  const answer =
    'reason' in words
      ? `I refused it: ${words.reason}`
      : `I refused it, and would run this code instead:\n${words.counter}`;
  await E(host).send(
    session.guestName,
    [`You asked me ${askedFor(asked, codeShown)}\n${answer}`],
    [],
    [],
  );
  screen.print(
    'note',
    `(${session.guestName} was made again since it asked, and learns only that #${number} was refused: your ${'reason' in words ? 'reason' : 'code'} goes to it as a message from you)`,
  );
};
harden(tellLostWords);
