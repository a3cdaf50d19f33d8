/**
 * On a terminal, a paste of several lines is one message (docs/behaviour.md 10.2): the terminal
 * is asked to mark what is pasted (bracketed paste), the lines a paste ends wait, and the Enter
 * the person types next sends them with the line it ends, as one message. Before, each pasted
 * line was a message and a turn of its own: a stack trace pasted cost a model call a line.
 * A terminal that does not mark pastes sends each line as typed, as before.
 */
import type { Interface } from 'node:readline';

const BRACKETED_PASTE_ON = '\x1b[?2004h';
const BRACKETED_PASTE_OFF = '\x1b[?2004l';

export interface PastedLines {
  /** Drops the pasted lines still waiting for Enter (Ctrl-C's first job); whether there were any. */
  discard(): boolean;
}

/**
 * A pasted block that starts with `/` is text, not a command: the simulator's own escape
 * (`//`, sim/chat/commands.ts) keeps it a message.
 */
const asMessage = (text: string): string => {
  const trimmed = text.trimStart();
  return trimmed.startsWith('/') ? `/${trimmed}` : text;
};

export const joinPastedLines = (options: {
  /** The terminal's input, whose `keypress` events (node:readline) say where a paste starts and ends. */
  input: NodeJS.EventEmitter;
  output: { write(text: string): unknown };
  readline: Interface;
  /** Each line entered, a paste's lines joined by line breaks. */
  onLine: (line: string) => void;
  note: (text: string) => void;
}): PastedLines => {
  const { input, output, readline, onLine, note } = options;
  let pasting = false;
  let waiting: string[] = [];
  output.write(BRACKETED_PASTE_ON);
  // The person's shell gets its terminal back as it was, however the program ends.
  process.once('exit', () => output.write(BRACKETED_PASTE_OFF));
  input.on('keypress', (_text: unknown, key: { name?: string } | undefined) => {
    if (key?.name === 'paste-start') pasting = true;
    if (key?.name !== 'paste-end') return;
    pasting = false;
    if (waiting.length === 0) return;
    const count =
      waiting.length === 1 ? '1 pasted line waits' : `${waiting.length} pasted lines wait`;
    note(
      `${count}: Enter sends ${waiting.length === 1 ? 'it' : 'them'} as one message, with the line you are on (Ctrl-C drops ${waiting.length === 1 ? 'it' : 'them'})`,
    );
  });
  readline.on('line', (line: string) => {
    if (pasting) {
      waiting.push(line);
      return;
    }
    if (waiting.length === 0) {
      onLine(line);
      return;
    }
    // An Enter on an empty line sends the paste as it is; no empty last line is added.
    const lines = line === '' ? waiting : [...waiting, line];
    waiting = [];
    onLine(asMessage(lines.join('\n')));
  });
  return harden({
    discard: () => {
      if (waiting.length === 0) return false;
      note(
        `(the ${waiting.length === 1 ? 'pasted line is' : `${waiting.length} pasted lines are`} dropped)`,
      );
      waiting = [];
      return true;
    },
  });
};
harden(joinPastedLines);
