/**
 * A note wider than the terminal, wrapped at words to its width, so the
 * terminal never breaks a word across two rows ("behi / nd"); a list item's
 * rows go on under its description ("  /status    the agent's state: …"), a
 * bullet's under its text. A word wider than a row (a path, JSON without
 * spaces) is written whole on a row of its own, for the terminal to wrap: a
 * terminal joins its own wrap again when the word is copied, and a path
 * broken by us would copy as one that does not exist. For a terminal that says its width (./screen.ts, and ./print-lines.ts
 * for what is printed before or outside the chat); piped output keeps its lines as they are, but
 * /help's, wrapped at a width of its own (./run-command.ts). Widths are the columns the terminal
 * draws (./columns.ts: 日本語 takes six).
 */
import { columnsOf } from './columns.js';

/** How a line's later rows are laid out. */
interface Hanging {
  /**
   * Whether a run of two spaces or more after its first words is a table's column to hang under
   * (our own: /help, a usage); not in text we quote (a tool's output in the agent's words, `ls -l`'s
   * columns), whose later rows hang at its own indent (issue 45, trial 14).
   */
  tables: boolean;
  /** The least indent of the later rows (an entry's head with a body after it: the body's). */
  least: number;
}

/** How far a line's later rows are indented: under a list item's description, a bullet's text, or its own indent. */
const hangOf = (line: string, width: number, { tables, least }: Hanging): number => {
  const bullet = /^(\s*)(?:[-•·] )/.exec(line);
  if (bullet !== null) return Math.max(least, columnsOf(bullet[0]));
  // A label, then two spaces or more, then its description (a /help line).
  const item = tables ? /^(\s*\S(?:.*?\S)?\s{2,})\S/.exec(line) : null;
  if (item !== null && columnsOf(item[1]!) <= (width * 3) / 4)
    return Math.max(least, columnsOf(item[1]!));
  return Math.max(least, columnsOf(/^\s*/.exec(line)![0]));
};

/**
 * A command to type, on a line of its own under /help's commands (./commands.ts, four spaces in):
 * never broken, for the two rows of it copied would send a message, not run the command (issue
 * 45, trial 14); past the width, the terminal wraps it, and joins it again when it is copied.
 */
const COMMAND_TO_COPY = /^ {4}\/\S+(?: \S+)+$/;

/**
 * One line as rows: the first `first` columns wide at most, the others `width` (their indent
 * included). The spaces between words stay as they were within a row; a row ends at a space.
 */
const wrapLine = (
  line: string,
  first: number,
  width: number,
  hanging: Hanging = { tables: true, least: 0 },
): string[] => {
  if (columnsOf(line) <= first || COMMAND_TO_COPY.test(line)) return [line];
  const hang = ' '.repeat(Math.min(hangOf(line, width, hanging), Math.max(0, width - 10)));
  const rows: string[] = [];
  let row = '';
  let room = first;
  const newRow = () => {
    rows.push(row.trimEnd());
    row = hang;
    room = width;
  };
  for (const [, gap, word] of line.matchAll(/(\s*)(\S+)/g)) {
    const lead = row.trim() === '' && rows.length > 0 ? '' : gap!;
    if (columnsOf(row + lead + word!) <= room) {
      row += lead + word!;
      continue;
    }
    // On a row of its own, but for the line's first (a whole row: nothing goes before it).
    if (row.trim() !== '' || (rows.length === 0 && room < width)) newRow();
    row += word!;
    // A word no row holds is written whole, alone on its row: the terminal wraps it, and joins
    // it again on copy, where a break of ours would copy as a path that does not exist.
    if (columnsOf(row) > room) newRow();
  }
  if (row.trim() !== '') rows.push(row.trimEnd());
  return rows;
};

/**
 * Lines printed outside the chat's screen (the usage, a refusal at start, the model double's
 * banner), each wrapped to `width` columns as an entry's head is: ./print-lines.ts.
 */
export const wrapLines = (text: string, width: number): string =>
  text
    .split('\n')
    .flatMap(line => wrapLine(line, width, width))
    .join('\n');
harden(wrapLines);

/**
 * An entry as ./screen.ts prints it, `head`, a space, then `body` (its later lines indented by
 * two), wrapped to `width` columns: each returned as it goes on the screen, before colouring.
 */
export const wrapEntry = (
  head: string,
  body: string | undefined,
  width: number,
): { head: string; body: string | undefined } => {
  // With a body, the head's later rows are indented as the body's are (`waits › …` then its note).
  const least = body === undefined ? 0 : 2;
  const headRows = head
    .split('\n')
    .flatMap(line => wrapLine(line, width, width, { tables: true, least }));
  const last = headRows.at(-1) ?? '';
  if (body === undefined) return { head: headRows.join('\n'), body };
  // The body's first line goes on the head's last row; the others start two columns in.
  const bodyRows = body
    .split('\n')
    .flatMap((line, index) =>
      wrapLine(line, index === 0 ? width - columnsOf(last) - 1 : width - 2, width - 2),
    );
  return { head: headRows.join('\n'), body: bodyRows.join('\n') };
};
harden(wrapEntry);

/** Stands for a space inside a marked span while wrapping, so the span stays one word. */
const TIE = '\uE000';
/** A marked span of ./quasi-markdown.ts (`*bold words*`), up to 40 characters. */
const SPAN = /(?<=^|[\s([{"'])([*/_~])(?=\S)[^\n]{0,40}?\S\1(?=$|[\s)\]}.,;:!?"'])/g;

/**
 * The agent's words (an entry's body after `head`), wrapped as ./screen.ts prints a note's,
 * but for two things a reader of its text needs: a fenced code block's lines are left as
 * written (a break inside code reads as a new line of it), and a marked span is never split
 * across rows (its markup, styled per row, would show as raw marks).
 */
export const wrapAgentWords = (head: string, body: string, width: number): string => {
  let fenced = false;
  return body
    .split('\n')
    .flatMap((line, index) => {
      if (/^\s*```/.test(line)) fenced = !fenced;
      if (fenced || /^\s*```/.test(line)) return [line];
      const tied = line.replace(SPAN, span => span.replaceAll(' ', TIE));
      // Its words are not our table: a run of spaces in them (a tool's output) is no column.
      return wrapLine(tied, index === 0 ? width - columnsOf(head) - 1 : width - 2, width - 2, {
        tables: false,
        least: 0,
      }).map(row => row.replaceAll(TIE, ' '));
    })
    .join('\n');
};
harden(wrapAgentWords);
