/**
 * A tool call as one short line for the person watching: `reply #3 "pong"`,
 * `send HOST "…"`, `evaluate 6 * 7 → answer`; other tools show their
 * arguments compactly.
 */
import { columnsOf, fitColumns } from './columns.js';

const MAX = 80;

/**
 * `text` on one line, cut to `max` columns of the terminal (./columns.ts: 日本語 takes six), its last
 * "…" when it is cut, between two letters (never through an emoji's two halves).
 */
export const cut = (text: string, max = MAX): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return columnsOf(flat) > max ? `${fitColumns(flat, max - 1)}…` : flat;
};
harden(cut);

/** SmallCaps-style numbers (`"+3"`) and plain ones read back as text. */
const numberText = (value: unknown): string =>
  typeof value === 'string' ? value.replace(/^\+/, '') : String(value);

const textOf = (strings: unknown): string =>
  Array.isArray(strings) ? strings.map(String).join('') : String(strings ?? '');

/**
 * `lead` and a text in quotes, as its words read (no JSON escape: `"https:` not `\"https:`), cut
 * to what fits the line with its closing quote, one "…" where it is cut (the agent's, or ours).
 */
const quoted = (lead: string, text: string): string =>
  `${lead} "${cut(text, Math.max(10, MAX - lead.length - 3))}"`;

const compactArgs = (args: Record<string, unknown>): string =>
  cut(
    Object.entries(args)
      .map(
        ([key, value]) =>
          `${key}=${typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value)}`,
      )
      .join(' '),
  );

/** A JSON string's text as far as it goes (cut off, maybe mid-escape): its characters, unescaped. */
const partialString = (raw: string): string => {
  const whole = raw.replace(/\\u[0-9a-fA-F]{0,3}$|\\$/, '');
  try {
    return JSON.parse(`"${whole}"`) as string;
  } catch {
    return whole;
  }
};

/**
 * The agent cuts a long call's summary, which leaves it unparseable: the
 * fields a reply or a send is shown by, read from what is there.
 */
const salvageArgs = (summary: string): Record<string, unknown> | undefined => {
  const number = /"messageNumber":"?\+?(\d+)/.exec(summary)?.[1];
  const recipient = /"recipient":"((?:[^"\\]|\\.)*)"/.exec(summary)?.[1];
  const text = /"strings":\["((?:[^"\\]|\\.)*)/.exec(summary)?.[1];
  if (text === undefined) return undefined;
  return {
    ...(number === undefined ? {} : { messageNumber: number }),
    ...(recipient === undefined ? {} : { recipient: partialString(recipient) }),
    // One "…": the agent's own cut mark, if the summary ends with it, says it is cut already.
    strings: [partialString(text).replace(/…?$/, '…')],
  };
};

const argsOf = (summary: string): Record<string, unknown> | undefined => {
  try {
    const parsed = JSON.parse(summary) as unknown;
    return parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)
      ? undefined
      : (parsed as Record<string, unknown>);
  } catch {
    return salvageArgs(summary);
  }
};

export const describeToolCall = (name: string, summary: string): string => {
  const args = argsOf(summary);
  if (args === undefined) return cut(`${name} ${summary}`);
  switch (name) {
    case 'reply':
      return quoted(`reply #${numberText(args.messageNumber)}`, textOf(args.strings));
    case 'send':
      return quoted(`send ${String(args.recipient)}`, textOf(args.strings));
    case 'dismiss':
      return `dismiss #${numberText(args.messageNumber)}`;
    case 'evaluate':
      return cut(
        `evaluate ${String(args.source)}${args.resultName === undefined ? '' : ` → ${String(args.resultName)}`}`,
      );
    default:
      return Object.keys(args).length === 0 ? name : cut(`${name} ${compactArgs(args)}`);
  }
};
harden(describeToolCall);
