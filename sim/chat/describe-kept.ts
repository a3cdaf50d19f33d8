/**
 * `/memory`: what the agent keeps in its guest's store, in words — its
 * conversation (turns and digest), the messages it handled, what it waits
 * for, its wake-ups, and its searchable history — read from the stored
 * memory (src/memory/agent-memory.ts) without changing it.
 */
import { HISTORY_DIRECTORY, MEMORY_PATH } from '../../src/daemon/own-names.js';
import { MEMORY_SHOWN } from '../../src/memory/memory-place.js';
import { WORDS_FROM } from '../../src/history/word-labels.js';
import { E } from '@endo/far';

interface KeptPowers {
  has(...path: string[]): unknown;
  lookup(path: string | string[]): unknown;
  list(...path: string[]): unknown;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The recent turns /memory names, by title. */
const SHOWN_TURNS = 5;

const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/**
 * The memory keeps the keys of answered messages still in the inbox only, not of every message
 * answered (src/memory/handled-keys.ts): the line says what its count is.
 */
const handledLine = (count: number): string =>
  count === 0
    ? 'no answered message is still in the inbox (answered ones are dismissed, so none is answered twice)'
    : `${plural(count, 'answered message')} still in the inbox, remembered so that none is answered twice`;

/** The stored memory's parts, in lines; what does not read is said so. */
const describeMemory = (stored: unknown): string[] => {
  let memory: Record<string, unknown>;
  try {
    memory = JSON.parse(String(stored)) as Record<string, unknown>;
  } catch {
    return [`${MEMORY_SHOWN}: stored, but not as JSON this simulator can read`];
  }
  const conversation = (memory.conversation ?? {}) as { turns?: unknown; digest?: unknown };
  const turns = Array.isArray(conversation.turns)
    ? (conversation.turns as { title?: unknown }[])
    : [];
  const asks = (memory.asks ?? {}) as Record<string, unknown>;
  const waiting = Object.values(asks).reduce<number>((sum, list) => sum + lengthOf(list), 0);
  const shown = turns.slice(-SHOWN_TURNS);
  const which = turns.length > shown.length ? ` (the last ${shown.length} below)` : '';
  const lines = [
    `the conversation: ${plural(turns.length, 'recent turn')}${which} and ${plural(lengthOf(conversation.digest), 'digest line')} of older ones`,
    ...shown.map(turn => `  · ${String(turn.title ?? '(untitled)')}`),
    ...(shown.some(turn => String(turn.title).includes(WORDS_FROM))
      ? [
          `  (a turn that ${WORDS_FROM} others keeps them out of later turns, as the agent does with words not from the HOST: what it did stays; mail recall shows the words)`,
        ]
      : []),
    handledLine(lengthOf(memory.handled)),
    `${plural(waiting, 'ask')} waiting for an answer, ${plural(lengthOf(memory.wakeUps), 'wake-up')} scheduled`,
  ];
  return lines;
};

/** The exchanges of the history's open chunk the memory carries (version 11); none when it does not read. */
const openExchanges = (stored: unknown): number => {
  try {
    const { openChunk } = JSON.parse(String(stored)) as { openChunk?: { exchanges?: unknown } };
    return lengthOf(openChunk?.exchanges);
  } catch {
    return 0;
  }
};

export const describeKept = async (powers: KeptPowers): Promise<string[]> => {
  const lines: string[] = [];
  let open = 0;
  if (await E(powers).has(...MEMORY_PATH)) {
    const stored = await E(powers).lookup([...MEMORY_PATH]);
    lines.push(...describeMemory(stored));
    open = openExchanges(stored);
  } else lines.push('no conversation yet');
  const closed = (await E(powers).has(HISTORY_DIRECTORY))
    ? ((await E(powers).list(HISTORY_DIRECTORY)) as string[]).length
    : 0;
  if (closed > 0 || open > 0)
    lines.push(
      `the searchable history: ${plural(closed, 'full chunk')} (${HISTORY_DIRECTORY}/) and ${plural(open, 'exchange')} in the open one (kept with the memory)`,
    );
  return lines;
};
harden(describeKept);

/**
 * `/memory`'s text: one list, a bullet for each part; a part's items (the recent turns) and notes
 * stand indented under it with no bullet of their own.
 */
export const keptListing = (guestName: string, lines: readonly string[]): string =>
  [`What ${guestName} keeps:`, ...lines.map(line => (/^\s/.test(line) ? line : `- ${line}`))].join(
    '\n',
  );
harden(keptListing);
