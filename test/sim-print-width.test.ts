/**
 * What `npm start` and `npm run model-double` print outside the chat's screen, on a terminal 80
 * and 60 columns wide drawn by a terminal emulator (issue 45; sim/chat/print-lines.ts, README:
 * "on a terminal what the simulator writes is wrapped at words to its width"): the usage, a
 * refusal at start, the model double's banner go through the chat's word-wrapper, so the terminal
 * wraps no row and cuts no word; the banner's commands are each whole on a row of their own
 * (a break of ours would end the command where it is pasted). Piped, each is as it was.
 * Before, `--help` had 14 lines over 80 columns and the banner 8, each cut mid-word by the terminal.
 * At 60 columns a usage is laid out from its parts, not re-wrapped with its 80-column breaks
 * (trial 13: `started here (no model` / `needed; …` under it, ragged). On a fresh clone (no dist/
 * yet), scripts/start.mjs prints the same rows as the built program: one layout, not a second
 * one fixed at 80 columns (issue 45).
 */
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { printLines } from '../sim/chat/print-lines.js';
import { lockedLine } from '../sim/chat/state-lock.js';
import { USAGE } from '../sim/chat/usage.js';
import { DOUBLE_USAGE } from '../sim/model-server/usage.js';
import { runProgramOnTty, SIMULATOR, type TtyStep } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows, type ScreenRow } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

const words = (text: string): string[] => text.split(/\s+/).filter(word => word !== '');

/** What a person needs of text printed at `columns`: no row the terminal wrapped, every word whole, in order. */
const expectWrappedAtWords = (rows: readonly ScreenRow[], text: string, columns: number) => {
  for (const row of rows) {
    expect(row.wrapped, row.text).toBe(false);
    expect(row.text.length, row.text).toBeLessThan(columns);
  }
  expect(words(rows.map(row => row.text).join('\n'))).toEqual(words(text));
};

/**
 * Laid out at this width, not re-wrapped from 80 columns (trial 13 M3): a row that goes on a part
 * (an option's description, the synopsis's flags: indented; a paragraph: a row that starts in
 * lowercase) could not have taken its first word on the row before.
 */
const expectLaidOutAt = (rows: readonly ScreenRow[], columns: number) => {
  const texts = rows.map(row => row.text.trimEnd());
  for (const [index, text] of texts.entries()) {
    const before = texts[index - 1];
    const goesOn = /^ {4,}\S/.test(text) || /^[a-z(]/.test(text);
    if (before === undefined || before.trim() === '' || !goesOn) continue;
    // A synopsis's flag with its value (`[--protocol openai|anthropic|ollama]`) is one.
    const first = /^\[[^\]]*\]|^\S+/.exec(text.trim())![0];
    expect(before.length + 1 + first.length, `${before}\n${text}`).toBeGreaterThan(columns - 1);
  }
};

const onTty = async (
  program: string,
  args: string[],
  env: Record<string, string>,
  columns: number,
  steps: readonly TtyStep[] = [],
) =>
  screenRows(
    (await runProgramOnTty(program, args, env, steps, makeTempFolder('cwd'), { columns, rows: 30 }))
      .output,
    columns,
  );

const START = SIMULATOR;
const DOUBLE = 'sim/model-server/main.js';
const BENCH = 'bench/run.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** A fresh clone's copy: the scripts and the sources, the packages linked, no dist/. */
const freshClone = (): string => {
  const clone = makeTempFolder('clone');
  mkdirSync(join(clone, 'scripts'));
  for (const name of ['start.mjs', 'built.mjs'])
    cpSync(join(repoRoot, 'scripts', name), join(clone, 'scripts', name));
  cpSync(join(repoRoot, 'tsconfig.json'), join(clone, 'tsconfig.json'));
  for (const folder of ['sim', 'bench'])
    cpSync(join(repoRoot, folder), join(clone, folder), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
  return clone;
};

describe('printed outside the chat, on a terminal', () => {
  for (const columns of [80, 60]) {
    it(`${columns} columns: npm start --help and model-double --help, wrapped at words`, async () => {
      const start = await onTty(START, ['--help'], {}, columns);
      expectWrappedAtWords(start, USAGE, columns);
      expectLaidOutAt(start, columns);
      const double = await onTty(DOUBLE, ['--help'], {}, columns);
      expectWrappedAtWords(double, DOUBLE_USAGE, columns);
      expectLaidOutAt(double, columns);
    });

    it(`${columns} columns: --help before the first build, laid out as the built program lays it out`, async () => {
      const clone = freshClone();
      const start = join(clone, 'scripts', 'start.mjs');
      const unbuilt = await onTty(start, ['--help'], {}, columns);
      expect(unbuilt).toEqual(await onTty(START, ['--help'], {}, columns));
      const double = await onTty(start, ['--program', DOUBLE, '--help'], {}, columns);
      expect(double).toEqual(await onTty(DOUBLE, ['--help'], {}, columns));
      const bench = await onTty(start, ['--program', BENCH, '--help'], {}, columns);
      expect(bench).toEqual(await onTty(BENCH, ['--help'], {}, columns));
      // Printed from the sources alone: nothing was built.
      expect(existsSync(join(clone, 'dist'))).toBe(false);
    });

    it(`${columns} columns: a refusal at start, wrapped at words`, async () => {
      // A flag's mistake and a setting's, each one line to the terminal (stderr, a tty too).
      const rows = await onTty(
        START,
        ['--demo'],
        {
          LAL_MAX_MODEL_CALLS: 'a-value-no-one-would-mean-for-a-count',
          XDG_STATE_HOME: makeTempFolder('state'),
        },
        columns,
      );
      expectWrappedAtWords(
        rows,
        'LAL_MAX_MODEL_CALLS must be a positive whole number; got "a-value-no-one-would-mean-for-a-count" in the environment; see docs/configuration.md.',
        columns,
      );
    });

    it(`${columns} columns: the model double's banner wrapped at words, its commands each whole`, async () => {
      const rows = await onTty(DOUBLE, ['--port', '0'], {}, columns, [
        // Ctrl-C, as the banner says, once it has all been printed.
        { after: /long story when asked\./, keys: '\x03' },
      ]);
      // A command's row, and the rows the terminal wrapped it onto: one line once joined.
      const commands: string[] = [];
      const prose: ScreenRow[] = [];
      for (const row of rows) {
        if (row.wrapped) commands[commands.length - 1] += row.text;
        else if (row.text.startsWith('    LAL_HOST=')) commands.push(row.text);
        else prose.push(row);
      }
      expect(commands).toHaveLength(3);
      for (const command of commands)
        expect(command).toMatch(/^ {4}LAL_HOST=http:\/\/127\.0\.0\.1:\d+\S* (?:\S+ )*npm start$/);
      expectWrappedAtWords(prose, words(prose.map(row => row.text).join(' ')).join(' '), columns);
      expect(prose.map(row => row.text).join(' ')).toContain(
        'It answers "ping", works out arithmetic',
      );
    });
  }
});

describe('printLines', () => {
  const sink = (isTTY: boolean, columns?: number) => {
    let written = '';
    return {
      isTTY,
      columns,
      write: (text: string) => (written += text),
      written: () => written,
    };
  };

  it('on a terminal, wraps at words to one column less than its width (the screen keeps one spare)', () => {
    const line = lockedLine('/home/someone/.local/state/lal-fae/lal', 52411);
    const tty = sink(true, 80);
    printLines(tty, line);
    const rows = tty.written().split('\n');
    expect(rows.at(-1)).toBe('');
    for (const row of rows) expect(row.length).toBeLessThanOrEqual(79);
    expect(words(tty.written())).toEqual(words(line));
    // The holder's number whole, never `(process 5` / `2411)`.
    expect(tty.written()).toMatch(/\(process\s+52411\)/);
  });

  it('piped, or a terminal that says no width, writes the text as it is', () => {
    const text = `${'word '.repeat(40)}\n  --flag   ${'more '.repeat(30)}`;
    for (const out of [sink(false, 80), sink(true, undefined), sink(false)]) {
      printLines(out, text);
      expect(out.written()).toBe(`${text}\n`);
    }
  });
});
