/**
 * What the HOST is shown when a call needs its approval, and the key of the
 * allowance a yes leaves over a restart. The text is the whole decoded call,
 * never cut: the op it runs (a grouped built-in is named by its op, however
 * it was called) and every argument as the tool gets them, secrets already
 * redacted. The key is a digest of exactly that text, so an allowance runs
 * only the call the HOST saw (behaviour 3.10).
 */
import { createHash } from 'node:crypto';
import { decodeCall, type DecodedCall } from '../agent-tools/decode-call.js';

/** The call as the HOST reads it: `makeDirectory {"path":"box"}`. */
export const describeCall = ({ call, args, grouped }: DecodedCall): string => {
  if (grouped === undefined) return `${call.name} ${JSON.stringify(args)}`;
  const { op: _op, ...rest } = args;
  return `${grouped.op} ${JSON.stringify(rest)}`;
};
harden(describeCall);

/** The allowance key of a described call (its UTF-8, a string's default). */
export const digestOfCall = (described: string): string =>
  createHash('sha256').update(described).digest('hex');
harden(digestOfCall);

/**
 * The key of an approval stored by an earlier release, which kept only the
 * text it showed: `name {arguments as written}`, cut at 400 characters.
 * Undefined when that text is not a whole call, so no allowance comes of it.
 */
const digestOfStoredAction = (action: string): string | undefined => {
  const space = action.indexOf(' ');
  if (space <= 0) return undefined;
  const decoded = decodeCall(
    { id: 'stored', name: action.slice(0, space), arguments: action.slice(space + 1) },
    text => text,
  );
  return decoded.ok ? digestOfCall(describeCall(decoded)) : undefined;
};

/** The allowance key of a stored approval: its digest, or for one stored before digests, its text's. */
export const digestOfStored = (
  detail: Readonly<Record<string, unknown>>,
  action: string,
): string | undefined =>
  typeof detail.digest === 'string' ? detail.digest : digestOfStoredAction(action);
harden(digestOfStored);
