/**
 * A message as the daemon delivers it (docs/daemon-api.md, "Messages"). Fields
 * beyond the common ones depend on `type`; everything is optional here
 * because a malformed message must be handled, not crash the loop.
 */
import { cutWhole } from '../log/cut-text.js';

export interface MessageRecord {
  type?: unknown;
  number?: unknown;
  from?: unknown;
  to?: unknown;
  date?: unknown;
  messageId?: unknown;
  replyTo?: unknown;
  // package
  strings?: unknown;
  names?: unknown;
  // request
  description?: unknown;
  settled?: unknown;
  // eval-proposal-*
  source?: unknown;
  codeNames?: unknown;
  petNamePaths?: unknown;
  edgeNames?: unknown;
  workerName?: unknown;
  resultName?: unknown;
  dismisser?: unknown;
  [field: string]: unknown;
}

export const isProposalType = (type: unknown): boolean =>
  type === 'eval-proposal-reviewer' || type === 'eval-proposal-proposer';
harden(isProposalType);

/**
 * A message in a few words, for a turn's title: a package's text, a
 * counter-proposal's code, a request's description; the type of anything else.
 */
export const messagePreview = (message: MessageRecord): string => {
  if (message.type === 'package') return packageText(message);
  if (isProposalType(message.type))
    return `counter-proposal: ${typeof message.source === 'string' ? message.source : ''}`;
  if (message.type === 'request')
    return `request: ${typeof message.description === 'string' ? message.description : ''}`;
  return String(message.type);
};
harden(messagePreview);

/** A key that stays the same when the daemon replays the message after a restart. */
export const messageKey = (message: MessageRecord): string | undefined => {
  // 96 random bits of the id are plenty to tell messages apart, and keep the stored memory small.
  if (typeof message.messageId === 'string' && message.messageId !== '')
    return `id:${message.messageId.slice(0, 24)}`;
  if (typeof message.number === 'bigint') return `n:${message.number}`;
  return undefined;
};
harden(messageKey);

export const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
harden(stringList);

/** What a person wrote: the text parts interleaved with @edgeName for each attached value. */
export const packageText = (message: MessageRecord): string => {
  const strings = stringList(message.strings);
  const names = stringList(message.names);
  const parts: string[] = [];
  // A malformed package may carry fewer strings than its names need.
  const count = Math.max(strings.length, names.length + 1);
  for (let index = 0; index < count; index += 1) {
    parts.push(strings[index] ?? '');
    if (index < names.length) parts.push(`@${names[index]}`);
  }
  return parts.join('');
};
harden(packageText);

/** At most `max` characters of a text, never ending inside a token (../log/cut-text.ts), saying how long it was. */
export const cut = (text: string, max: number): string =>
  cutWhole(text, max, `… (${text.length} characters in all)`);
harden(cut);

/** The pet-name paths of a proposal rendered as strings ("dir/name"). */
export const pathList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(item => (Array.isArray(item) ? item.map(String).join('/') : String(item)))
    : [];
harden(pathList);
