/**
 * Where the chat is drawn. On a terminal: colours, the chat's light markup,
 * and a status row with a spinner above the prompt while the agent works; the
 * person's half-typed line survives output arriving. Elsewhere (a pipe, a
 * file): plain lines, no escape codes, no spinner.
 */
import type { Interface as ReadlineInterface } from 'node:readline';
import { clearLine, clearScreenDown, cursorTo, moveCursor } from 'node:readline';
import { columnsOf, expandTabs, fitColumns } from './columns.js';
import { renderQuasiMarkdown, stripControl } from './quasi-markdown.js';
import { wrapAgentWords, wrapEntry } from './wrap-words.js';

type LineKind =
  | 'agent'
  | 'you'
  /** A line of the person's shown as the prompt echoes it (`› …`): one held until the agent was ready. */
  | 'typed'
  | 'tool-ok'
  | 'tool-failed'
  | 'proposal'
  | 'note'
  | 'error'
  | 'usage'
  | 'log';

export interface Screen {
  readonly tty: boolean;
  /** One entry; `head` is the bold/coloured lead-in (e.g. `#2 lal ›`), `body` may span lines. */
  print(kind: LineKind, head: string, body?: string): void;
  /**
   * What the agent is doing, or undefined when it is idle (terminal only); `shorter`: forms of
   * it that keep its meaning, shortest last, for a terminal too narrow for it (none: it is cut).
   * `clock: false` for a status that counts its own seconds: the turn's clock is not shown
   * beside it, so the row has one count (issue 45).
   */
  status(text: string | undefined, shorter?: readonly string[], clock?: boolean): void;
  /** Lets the screen redraw the prompt after output (terminal only). */
  attachPrompt(readline: ReadlineInterface): void;
  /** The terminal's width in columns, undefined when it says none (piped). */
  width?(): number | undefined;
  /** Takes back the terminal's echo of the line just typed, to be shown elsewhere (terminal only). */
  takeBackEcho(line: string): void;
  close(): void;
}

/**
 * The status cut to `room` columns so it keeps to one row: its label (up to ": ") kept,
 * then its newest words (a streamed reply's tail is what changes). Columns as the terminal
 * draws them (./columns.ts), so a row of 日本語 is not carried onto a second row.
 */
export const fitStatus = (text: string, room: number): string => {
  if (columnsOf(text) <= room) return text;
  const labelEnd = text.indexOf(': ') + 2;
  const label = text.slice(0, labelEnd);
  const kept = labelEnd > 1 && columnsOf(label) < room - 1 ? label : '';
  const tail = Math.max(0, room - columnsOf(kept) - 1);
  return kept === ''
    ? `${fitColumns(text, tail)}…`
    : `${kept}…${fitColumns(text.slice(labelEnd), tail, 'end')}`;
};
harden(fitStatus);

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SPIN_MS = 100;
export const PROMPT = '› ';
harden(PROMPT);

const colour: Record<LineKind, [string, string]> = {
  agent: ['\x1b[1;36m', '\x1b[0m'],
  you: ['\x1b[1;32m', '\x1b[0m'],
  // As readline writes the prompt and what was typed: uncoloured.
  typed: ['', ''],
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

/**
 * A screen that cleans all it is given before drawing it: heads, bodies and status alike come
 * from the model, a peer or a tool (a call's arguments, a result, a note, a title), and an ESC,
 * BEL, backspace or carriage return among them would restyle, hide or ring on the person's
 * terminal (issue 45, trial 15). Both screens are made through it, so no caller can forget.
 */
const cleaning = (screen: Screen): Screen => ({
  ...screen,
  print: (kind, head, body) =>
    screen.print(kind, stripControl(head), body === undefined ? undefined : stripControl(body)),
  status: (text, shorter, clock) =>
    screen.status(
      text === undefined ? undefined : stripControl(text),
      shorter?.map(stripControl),
      clock,
    ),
});

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
): Screen => cleaning(makeRawPlainScreen(write, stillWorkingMs));
harden(makePlainScreen);

const makeRawPlainScreen = (write: (text: string) => void, stillWorkingMs: number): Screen => {
  let current: string | undefined;
  let currentClock = true;
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  return {
    tty: false,
    print(_kind, head, body) {
      const text = body === undefined ? head : `${head} ${indent(body, '  ')}`;
      write(`${text}\n`);
    },
    status(text, _shorter, clock = true) {
      currentClock = clock;
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
            write(
              `(${current}${currentClock ? ` ${Math.round((Date.now() - since) / 1000)}s` : ''})\n`,
            );
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

/**
 * The status in `room` columns: whole, else the first shorter form that fits whole, else cut
 * (`fitStatus`), the shortest form when there is one.
 */
export const fitStatusForms = (text: string, shorter: readonly string[], room: number): string =>
  [text, ...shorter].find(form => columnsOf(form) <= room) ??
  fitStatus(shorter.at(-1) ?? text, room);
harden(fitStatusForms);

/** One entry as the terminal shows it: coloured, wrapped at words to `columns` when it says a width. */
const renderEntry = (
  kind: LineKind,
  tabbed: string,
  givenTabbed: string | undefined,
  columns: number | undefined,
): string => {
  // A tab as the spaces it takes, so that what is measured is what the terminal draws.
  const head = expandTabs(tabbed);
  const given = givenTabbed === undefined ? undefined : expandTabs(givenTabbed);
  const [on, off] = colour[kind];
  const [bodyOn, bodyOff] = bodyColour[kind] ?? [on, off];
  // Wrapped at words to the terminal's width (one column spare); the agent's own words keep
  // their code blocks and marked spans whole (./wrap-words.ts).
  const fitted = !columns
    ? { head, body: given }
    : kind === 'agent'
      ? {
          head,
          body: given === undefined ? undefined : wrapAgentWords(head, given, columns - 1),
        }
      : wrapEntry(head, given, columns - 1);
  const body = fitted.body;
  // A body whose first word did not fit beside the head starts on the next row: no space before
  // that row's end (a trailing space a copied line would keep).
  const rendered =
    body === undefined
      ? ''
      : `${body.startsWith('\n') ? '' : ' '}${indent(kind === 'agent' ? renderQuasiMarkdown(body) : body, '  ')}`;
  return `${on}${fitted.head}${off}${bodyOn}${rendered}${bodyOff}`;
};

/**
 * The status row: the spinner and a space before the text, the turn's clock after it, fitted to
 * the terminal with one column spare.
 */
const statusRow = (
  text: string,
  forms: readonly string[],
  frame: number,
  seconds: number,
  out: { columns?: number },
): string => {
  const clock = seconds > 0 ? ` ${seconds}s` : '';
  const room = (out.columns || 80) - 1 - 2 - clock.length;
  return `${FRAMES[frame % FRAMES.length]} ${fitStatusForms(text, forms, room)}${clock}`;
};

const secondsSince = (since: number): number => Math.floor((Date.now() - since) / 1000);

/**
 * How many rows the cursor is down the prompt as drawn. Readline counts it too (`prevRows`,
 * not in its types) to go back up when it redraws, but a paste it writes straight out can wrap
 * onto a row it did not count: the count is made true here before anything redraws.
 */
const rowsDownThePrompt = (readline: ReadlineInterface): number => {
  const { rows } = readline.getCursorPos();
  const counted = readline as ReadlineInterface & { prevRows?: number };
  if (typeof counted.prevRows === 'number') counted.prevRows = rows;
  return rows;
};

/** Dim, as the status row is drawn. */
const DIM = ['\x1b[2m', '\x1b[0m'] as const;

/** Saves and restores the cursor's place (DECSC, DECRC), for a tick that redraws the status row alone. */
const SAVE_CURSOR = '\x1b7';
const RESTORE_CURSOR = '\x1b8';

/** `text` in place of the row `up` rows above the cursor's, the cursor left where it was. */
const writeRowAbove = (out: NodeJS.WriteStream, up: number, text: string): void => {
  out.write(SAVE_CURSOR);
  moveCursor(out, 0, -up);
  cursorTo(out, 0);
  out.write(`\x1b[2K${text}${RESTORE_CURSOR}`);
};

/**
 * The screen on a terminal. While the agent works, its status (`⠹ lal is writing: …`) has a row
 * of its own just above the prompt's row, which holds only `› ` and what is typed: a terminal
 * narrowed mid-turn rewraps the row the cursor is on (gnome-terminal, kitty, iTerm2) or cuts it
 * (xterm.js), and readline redraws the prompt by the rows it counted at the old width, so a status
 * in the prompt's row left a fragment of itself for good; a row above the cursor's is rewrapped
 * alike by all of them, so it is counted again at the new width, cleared and drawn again
 * (docs/behaviour.md 10.2).
 */
export const makeTtyScreen = (out: NodeJS.WriteStream): Screen => cleaning(makeRawTtyScreen(out));
harden(makeTtyScreen);

const makeRawTtyScreen = (out: NodeJS.WriteStream): Screen => {
  let readline: ReadlineInterface | undefined;
  let statusText: string | undefined;
  let statusForms: readonly string[] = [];
  let statusClock = true;
  let frame = 0;
  let since = Date.now();
  let timer: NodeJS.Timeout | undefined;
  /** The rows the status takes on the screen above the prompt's row (0: none drawn). */
  let statusRows = 0;
  /** The columns the status row was drawn in: the rows it takes once the terminal rewraps it. */
  let statusWidth = 0;
  /** The rows `width` columns of text take; one on a terminal that says no width, as readline counts. */
  const rowsOf = (width: number): number =>
    Math.max(1, Math.ceil(width / (out.columns || Number.POSITIVE_INFINITY)));

  const statusLine = (): string =>
    statusRow(statusText ?? '', statusForms, frame, statusClock ? secondsSince(since) : 0, out);
  const rowsDown = (): number => (readline === undefined ? 0 : rowsDownThePrompt(readline));
  /** Up to where the status row began (the prompt's row when there is none), at the column's start. */
  const toTopOfPrompt = () => {
    const up = rowsDown() + statusRows;
    if (up > 0) moveCursor(out, 0, -up);
    statusRows = 0;
  };
  /** From the start of a clear row: the status row, if any, then the prompt with what was typed. */
  const drawPrompt = () => {
    if (readline === undefined) return;
    if (statusText !== undefined) {
      const line = statusLine();
      out.write(`${DIM[0]}${line}${DIM[1]}\n`);
      statusRows = 1;
      statusWidth = columnsOf(line);
    }
    // Readline redraws from where it counts the prompt began: here.
    (readline as ReadlineInterface & { prevRows?: number }).prevRows = 0;
    readline.prompt(true);
  };
  const redraw = () => {
    if (readline === undefined) return;
    toTopOfPrompt();
    cursorTo(out, 0);
    clearScreenDown(out);
    drawPrompt();
  };
  /** The spinner's tick: the status row alone, the cursor left where it is in what is typed. */
  const tick = () => {
    if (readline === undefined || statusRows !== 1) {
      redraw();
      return;
    }
    const up = rowsDown() + 1;
    // A line typed taller than the screen has pushed the status row off it: nothing to draw there.
    if (out.rows !== undefined && up >= out.rows) return;
    const line = statusLine();
    writeRowAbove(out, up, `${DIM[0]}${line}${DIM[1]}`);
    statusWidth = columnsOf(line);
  };
  /** The terminal rewrapped the status row to its new width: as many rows are cleared. */
  const resized = () => {
    if (statusRows > 0) statusRows = rowsOf(statusWidth);
    redraw();
  };
  /**
   * A line entered: readline left it on the row(s) under the status, the cursor on the next. The
   * status goes back under it, just above the prompt's row, where every redraw looks for it.
   */
  const entered = (line: string) => {
    if (readline === undefined || statusRows === 0) return;
    const up = rowsOf(columnsOf(PROMPT + line)) + statusRows;
    statusRows = 0;
    // A line taller than the screen took the status row off it, out of reach: the prompt goes under it.
    if (out.rows === undefined || up < out.rows) {
      moveCursor(out, 0, -up);
      cursorTo(out, 0);
      clearScreenDown(out);
      out.write(`${PROMPT}${line}\n`);
    }
    drawPrompt();
  };
  const stopSpinner = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  return {
    tty: true,
    width: () => out.columns || undefined,
    print(kind, head, given) {
      // Take the status and the prompt away, every row they wrapped onto, print where they began,
      // then put them back under it with what was typed.
      toTopOfPrompt();
      clearLine(out, 0);
      cursorTo(out, 0);
      clearScreenDown(out);
      out.write(`${renderEntry(kind, head, given, out.columns)}\n`);
      drawPrompt();
    },
    status(text, shorter = [], clock = true) {
      if (text === statusText) return;
      if (text !== undefined && statusText === undefined) since = Date.now();
      statusText = text;
      statusForms = shorter;
      statusClock = clock;
      if (text === undefined) stopSpinner();
      else if (timer === undefined) {
        timer = setInterval(() => {
          frame += 1;
          tick();
        }, SPIN_MS);
        timer.unref();
      }
      redraw();
    },
    attachPrompt(given) {
      readline = given;
      // After readline's own listeners, which redraw the prompt first (its 'resize') and leave
      // the line entered on the screen (its 'line').
      out.on('resize', resized);
      given.on('line', entered);
      redraw();
    },
    takeBackEcho(line) {
      if (readline === undefined) return;
      // The prompt and the line as the terminal wrapped them, above the status row (`entered`).
      moveCursor(out, 0, -(rowsOf(columnsOf(PROMPT + line)) + statusRows + rowsDown()));
      statusRows = 0;
      cursorTo(out, 0);
      clearScreenDown(out);
      drawPrompt();
    },
    close() {
      stopSpinner();
      statusText = undefined;
      out.off('resize', resized);
      readline?.off('line', entered);
      // Nothing is typed any more: what is printed from now on takes the prompt's row for good.
      readline = undefined;
    },
  };
};
