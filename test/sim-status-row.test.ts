/**
 * The status has a row of its own on a terminal, just above the prompt's, which holds only `› `
 * and what is typed (sim/chat/screen.ts, docs/behaviour.md 10.2; issue 45). In the prompt's own
 * row, a terminal narrowed mid-turn that rewraps the cursor's row (gnome-terminal, kitty, iTerm2)
 * kept a fragment of the old status for good, as readline redraws by the rows of the old width,
 * and a command typed while the agent thought left part of the spinner's row. xterm.js, which
 * draws these screens, cuts the cursor's row instead of rewrapping it, so it cannot show that
 * fragment itself: these check what the status row gives: while the agent works, exactly one
 * status row, right above the prompt, after a resize and after a command's output too; once the
 * turn is over none, and every line printed whole.
 */
import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../sim/model-server/index.js';
import { doubleEnv, useModelServers } from './support/model-servers.js';
import { runProgramOnTty, SIMULATOR, type Resized } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows, type ScreenRow } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();
const startServer = useModelServers();

const SPINNER = /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] /;
/** Any part of a status row: its spinner, or what it says the agent does. */
const STATUS_PART = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|fae is (thinking|writing|finishing|running|waiting)/;

const REPLY = Array.from(
  { length: 60 },
  (_, index) => `word${String(index).padStart(2, '0')}`,
).join(' ');

/** The rows as a person reads them: a row the terminal wrapped joined to the one before. */
const joined = (rows: readonly ScreenRow[]): string[] =>
  rows.reduce<string[]>((lines, row) => {
    if (row.wrapped && lines.length > 0) lines[lines.length - 1] += row.text;
    else lines.push(row.text);
    return lines;
  }, []);

/** The rows down to the prompt's, the last row with anything on it. */
const uptoPrompt = (rows: readonly ScreenRow[]): ScreenRow[] => {
  const last = rows.findLastIndex(row => row.text !== '');
  return rows.slice(0, last + 1);
};

/** While the agent works: one status row, just above the prompt's, which holds only `› `. */
const expectOneStatusRowAbovePrompt = (rows: readonly ScreenRow[]) => {
  const shown = uptoPrompt(rows);
  expect(shown.at(-1)?.text).toBe('›');
  expect(shown.at(-2)?.text).toMatch(SPINNER);
  expect(
    shown.filter(row => STATUS_PART.test(row.text)).map(row => row.text),
    shown.map(row => `${row.wrapped ? '+' : '|'}${row.text}`).join('\n'),
  ).toHaveLength(1);
};

/**
 * Where the simulator learned of a resize: the redraw of its first status row at the new width.
 * What it wrote before that, in the moment between the terminal's resize and its SIGWINCH, it
 * wrote for the old width, as any program would; a loaded machine makes that moment long, so the
 * screen is drawn as if the terminal had resized just then, and what is checked is the redraw.
 */
const learnedAt = (output: string, resized: Resized): Resized => {
  // eslint-disable-next-line no-control-regex -- the status row as the screen draws it (dim)
  const statusRows = /\x1b\[2m([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\x1b\n]*)\x1b\[0m/g;
  statusRows.lastIndex = resized.at;
  for (let found = statusRows.exec(output); found !== null; found = statusRows.exec(output)) {
    if (found[1]!.length >= resized.columns) continue;
    // From the move up to the status row that redraw began with.
    // eslint-disable-next-line no-control-regex -- a cursor movement up
    const moves = [...output.slice(resized.at, found.index).matchAll(/\x1b\[\d+A/g)];
    const at = moves.length === 0 ? found.index : resized.at + moves.at(-1)!.index;
    return { ...resized, at };
  }
  throw new Error('no status row drawn at the new width');
};

/** The output up to the end of the first prompt drawn after `from`: a whole redraw, not half of one. */
const upToPrompt = (output: string, from: number): string => {
  const drawn = output.indexOf(`› \x1b[3G`, from);
  expect(drawn).toBeGreaterThanOrEqual(0);
  return output.slice(0, drawn + '› \x1b[3G'.length);
};

describe('the status row on a terminal', () => {
  it('narrowed while a reply streams: one status row, redrawn; none left once the turn is over, and no line printed lost', async () => {
    const server = await startServer({
      protocol: 'openai',
      reply: (): ScriptedReply => ({ text: REPLY, frameGapMs: 40 }),
    });
    const run = await runProgramOnTty(
      SIMULATOR,
      ['--persona', 'fae', '--fresh'],
      doubleEnv(server.url, makeTempFolder),
      [
        { after: /agent ready/, keys: 'tell me slowly\r' },
        { after: /fae is writing: [^\n]*word05/, keys: '', resize: { columns: 40, rows: 30 } },
        { after: /fae is writing: [^\n]*word20/, keys: '' },
        { after: /turn over/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
      { columns: 80, rows: 30 },
    );
    const resizes = run.resizes.map(resized => learnedAt(run.output, resized));
    const narrowed = await screenRows(upToPrompt(run.output, run.matchedAt[2]!), 80, resizes);
    expectOneStatusRowAbovePrompt(narrowed);
    const rows = await screenRows(run.output, 80, resizes);
    expect(rows.filter(row => STATUS_PART.test(row.text)).map(row => row.text)).toEqual([]);
    const lines = joined(rows);
    // Printed at 80 columns before the resize, rewrapped whole by the terminal.
    expect(lines).toContainEqual(
      expect.stringMatching(/^#0 fae › Fae agent ready\. I think with double-model/),
    );
    expect(lines).toContain('› tell me slowly');
    // The reply, printed at 40 columns, every word of it.
    const reply = lines.join(' ').replace(/\s+/g, ' ');
    expect(reply).toContain(`#2 fae › ${REPLY}`);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}· turn over: 1 model call/));
  });

  it('a command typed while the agent thinks: its output, then one status row above the prompt; none once the turn is over', async () => {
    let release = () => {};
    const thought = new Promise<void>(resolve => (release = resolve));
    const server = await startServer({
      protocol: 'openai',
      reply: async (): Promise<ScriptedReply> => {
        await thought;
        return { text: 'Done thinking.' };
      },
    });
    const run = await runProgramOnTty(
      SIMULATOR,
      ['--persona', 'fae', '--fresh'],
      doubleEnv(server.url, makeTempFolder),
      [
        { after: /agent ready/, keys: 'think it over\r' },
        { after: /fae is thinking/, keys: '/status\r' },
        // The whole of /status's output, and the spinner turning after it.
        { after: /Always allowed[\s\S]*fae is thinking[\s\S]*fae is thinking/, keys: '' },
        {
          after: /fae is thinking/,
          keys: '',
          before: () => {
            release();
            return Promise.resolve();
          },
        },
        { after: /turn over/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
      { columns: 80, rows: 30 },
    );
    const during = await screenRows(upToPrompt(run.output, run.matchedAt[2]!), 80);
    expectOneStatusRowAbovePrompt(during);
    expect(joined(during)).toContain('› /status');
    const rows = await screenRows(run.output, 80);
    expect(rows.filter(row => STATUS_PART.test(row.text)).map(row => row.text)).toEqual([]);
    const lines = joined(rows);
    expect(lines).toContain('› think it over');
    expect(lines).toContain('#2 fae › Done thinking.');
  });
});
