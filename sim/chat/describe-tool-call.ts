/**
 * A tool call as one short line for the person watching: `reply #3 "pong"`,
 * `send HOST "…"`, `evaluate 6 * 7 → answer`; other tools show their
 * arguments compactly.
 */

const MAX = 80;

const cut = (text: string, max = MAX): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** SmallCaps-style numbers (`"+3"`) and plain ones read back as text. */
const numberText = (value: unknown): string =>
  typeof value === 'string' ? value.replace(/^\+/, '') : String(value);

const textOf = (strings: unknown): string =>
  Array.isArray(strings) ? strings.map(String).join('') : String(strings ?? '');

const compactArgs = (args: Record<string, unknown>): string =>
  cut(
    Object.entries(args)
      .map(
        ([key, value]) =>
          `${key}=${typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value)}`,
      )
      .join(' '),
  );

export const describeToolCall = (name: string, summary: string): string => {
  let args: Record<string, unknown>;
  try {
    const parsed = JSON.parse(summary) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return cut(`${name} ${summary}`);
    args = parsed as Record<string, unknown>;
  } catch {
    // The agent cuts long summaries, which leaves them unparseable.
    return cut(`${name} ${summary}`);
  }
  switch (name) {
    case 'reply':
      return cut(
        `reply #${numberText(args.messageNumber)} ${JSON.stringify(textOf(args.strings))}`,
      );
    case 'send':
      return cut(`send ${String(args.recipient)} ${JSON.stringify(textOf(args.strings))}`);
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
