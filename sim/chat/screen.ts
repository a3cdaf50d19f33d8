/**
 * Where the chat is drawn. On a terminal: colours, the chat's light markup,
 * and a status line with a spinner in the prompt while the agent works; the
 * person's half-typed line survives output arriving. Elsewhere (a pipe, a
 * file): plain lines, no escape codes, no spinner.
 */
import type { Interface as ReadlineInterface } from 'node:readline';
import { clearLine, clearScreenDown, cursorTo, moveCursor } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { renderQuasiMarkdown, stripControl } from './quasi-markdown.js';
import { wrapAgentWords, wrapEntry } from './wrap-words.js';

type LineKind =
  'agent' | 'you' | 'tool-ok' | 'tool-failed' | 'proposal' | 'note' | 'error' | 'usage' | 'log';

export interface Screen {
  readonly tty: boolean;
  /** One entry; `head` is the bold/coloured lead-in (e.g. `#2 lal ›`), `body` may span lines. */
  print(kind: LineKind, head: string, body?: string): void;
  /**
   * What the agent is doing, or undefined when it is idle (terminal only); `shorter`: forms of
   * it that keep its meaning, shortest last, for a terminal too narrow for it (none: it is cut).
   */
  status(text: string | undefined, shorter?: readonly string[]): void;
  /** Lets the screen redraw the prompt after output (terminal only). */
  attachPrompt(readline: ReadlineInterface): void;
  /** The terminal's width in columns, undefined when it says none (piped). */
  width?(): number | undefined;
  /** Takes back the terminal's echo of the line just typed, to be shown elsewhere (terminal only). */
  takeBackEcho(line: string): void;
  close(): void;
}

/**
 * The status cut to `room` columns so the prompt keeps to one row: its label (up to ": ") kept,
 * then its newest words (a streamed reply's tail is what changes).
 */
export const fitStatus = (text: string, room: number): string => {
  if (text.length <= room) return text;
  const labelEnd = text.indexOf(': ') + 2;
  const kept = labelEnd > 1 && labelEnd < room - 1 ? text.slice(0, labelEnd) : '';
  const tail = Math.max(0, room - kept.length - 1);
  return kept === '' ? `${text.slice(0, tail)}…` : `${kept}…${text.slice(text.length - tail)}`;
};
harden(fitStatus);

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPIN_MS = 100;
export const PROMPT = '› ';
harden(PROMPT);

const colour: Record<LineKind, [string, string]> = {
  agent: ['\x1b[1;36m', '\x1b[0m'],
  you: ['\x1b[1;32m', '\x1b[0m'],
  'tool-ok': ['\x1b[2m', '\x1b[0m'],
  'tool-failed': ['\x1b[2m', '\x1b[0m'],
  proposal: ['\x1b[1;33m', '\x1b[0m'],
  note: ['\x1b[2m', '\x1b[0m'],
  error: ['\x1b[1;31m', '\x1b[0m'],
  usage: ['\x1b[2m', '\x1b[0m'],
  log: ['\x1b[2m', '\x1b[0m'],
};

/** The body's colour where it differs from the head's (the agent's text keeps its own markup). */
const bodyColour: Partial<Record<LineKind, [string, string]>> = {
  agent: ['', ''],
  'tool-ok': ['\x1b[32m', '\x1b[0m'],
  'tool-failed': ['\x1b[31m', '\x1b[0m'],
};

/** Continuation lines are indented under the head. */
const indent = (text: string, by: string): string => text.split('\n').join(`\n${by}`);

/** How often piped mode says the agent is still at work during a long wait. */
const STILL_WORKING_MS = 10_000;

/**
 * The screen when output is not a terminal: plain lines. With no spinner, it
 * says when the agent starts working, and again during a long wait (a slow
 * model call), so a script's reader is not left with silence.
 */
export const makePlainScreen = (
  write: (text: string) => void,
  stillWorkingMs = STILL_WORKING_MS,
): Screen => {
  let current: string | undefined;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  return {
    tty: false,
    print(_kind, head, body) {
      const text = body === undefined ? head : `${head} ${indent(stripControl(body), '  ')}`;
      write(`${text}\n`);
    },
    status(text) {
      if (text === undefined) {
        current = undefined;
        stop();
        return;
      }
      if (current === undefined) {
        since = Date.now();
        write(`(${text})\n`);
        timer = setInterval(() => {
          if (current !== undefined)
            write(`(${current} ${Math.round((Date.now() - since) / 1000)}s)\n`);
        }, stillWorkingMs);
        timer.unref();
      }
      current = text;
    },
    attachPrompt() {},
    takeBackEcho() {},
    close: stop,
  };
};
harden(makePlainScreen);

/**
 * The status in `room` columns: whole, else the first shorter form that fits whole, else cut
 * (`fitStatus`), the shortest form when there is one.
 */
export const fitStatusForms = (text: string, shorter: readonly string[], room: number): string =>
  [text, ...shorter].find(form => form.length <= room) ?? fitStatus(shorter.at(-1) ?? text, room);
harden(fitStatusForms);

export const makeTtyScreen = (out: NodeJS.WriteStream): Screen => {
  let readline: ReadlineInterface | undefined;
  let statusText: string | undefined;
  let statusForms: readonly string[] = [];
  let frame = 0;
  let since = Date.now();
  let timer: NodeJS.Timeout | undefined;

  const promptText = (): string => {
    if (statusText === undefined) return PROMPT;
    const seconds = Math.floor((Date.now() - since) / 1000);
    const clock = seconds > 0 ? ` ${seconds}s` : '';
    // The spinner, a space before and after the text, the clock and the prompt; one column spare.
    const room = (out.columns || 80) - 1 - 3 - clock.length - PROMPT.length;
    return `\x1b[2m${FRAMES[frame % FRAMES.length]} ${fitStatusForms(statusText, statusForms, room)}${clock}\x1b[0m ${PROMPT}`;
  };
  /**
   * How many rows the cursor is down the prompt as drawn. Readline counts it too (`prevRows`,
   * not in its types) to go back up when it redraws, but a paste it writes straight out can wrap
   * onto a row it did not count: the count is made true here before anything redraws.
   */
  const rowsDown = (): number => {
    if (readline === undefined) return 0;
    const { rows } = readline.getCursorPos();
    const counted = readline as ReadlineInterface & { prevRows?: number };
    if (typeof counted.prevRows === 'number') counted.prevRows = rows;
    return rows;
  };
  const redraw = () => {
    if (readline === undefined) return;
    rowsDown();
    readline.setPrompt(promptText());
    readline.prompt(true);
  };
  const stopSpinner = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  return {
    tty: true,
    width: () => out.columns || undefined,
    print(kind, head, given) {
      const [on, off] = colour[kind];
      const [bodyOn, bodyOff] = bodyColour[kind] ?? [on, off];
      // Wrapped at words to the terminal's width (one column spare); the agent's own words keep
      // their code blocks and marked spans whole (./wrap-words.ts).
      const fitted = !out.columns
        ? { head, body: given }
        : kind === 'agent'
          ? {
              head,
              body:
                given === undefined
                  ? undefined
                  : wrapAgentWords(stripControl(head), given, out.columns - 1),
            }
          : wrapEntry(
              stripControl(head),
              given === undefined ? undefined : stripControl(given),
              out.columns - 1,
            );
      const body = fitted.body;
      const rendered =
        body === undefined
          ? ''
          : ` ${indent(kind === 'agent' ? renderQuasiMarkdown(body) : stripControl(body), '  ')}`;
      // Take the prompt away, every row it wrapped onto, print where it began, then put it back
      // with what was typed. Readline's redraw first goes up as many rows as its cursor was
      // down the prompt; as many blank rows after the output keep that from rising into it.
      const rows = rowsDown();
      if (rows > 0) moveCursor(out, 0, -rows);
      clearLine(out, 0);
      cursorTo(out, 0);
      clearScreenDown(out);
      out.write(`${on}${fitted.head}${off}${bodyOn}${rendered}${bodyOff}\n${'\n'.repeat(rows)}`);
      redraw();
    },
    status(text, shorter = []) {
      if (text === statusText) return;
      if (text !== undefined && statusText === undefined) since = Date.now();
      statusText = text;
      statusForms = shorter;
      if (text === undefined) stopSpinner();
      else if (timer === undefined) {
        timer = setInterval(() => {
          frame += 1;
          redraw();
        }, SPIN_MS);
        timer.unref();
      }
      redraw();
    },
    attachPrompt(given) {
      readline = given;
      redraw();
    },
    takeBackEcho(line) {
      if (readline === undefined) return;
      // The prompt and the line as the terminal wrapped them, escapes left out of the width.
      const width = stripVTControlCharacters(readline.getPrompt()).length + line.length;
      const rows = Math.max(1, Math.ceil(width / Math.max(1, out.columns || 80)));
      moveCursor(out, 0, -rows);
      cursorTo(out, 0);
      clearScreenDown(out);
      redraw();
    },
    close() {
      stopSpinner();
      statusText = undefined;
      // Nothing is typed any more: what is printed from now on takes the prompt's row for good.
      readline = undefined;
    },
  };
};
harden(makeTtyScreen);
