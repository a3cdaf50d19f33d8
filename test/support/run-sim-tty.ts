/**
 * `npm start` on a terminal, as a person types at it: the simulator under a
 * pseudo-terminal (util-linux `script`), on the dist/ the test run built;
 * each line is typed once what comes before it has been printed.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { CHILD_MS } from './patience.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Each print clears the prompt's row, moves to its start and writes its line (sim/chat/screen.ts). */
const PRINT_START = '\x1b[2K\x1b[1G';

/**
 * The lines the simulator printed above its prompt, in order, escapes left out: the first row
 * of each entry (not the terminal's own echo of what was typed, nor the prompt's redraws).
 */
export const printedLines = (output: string): string[] =>
  output.split('\n').flatMap(row => {
    const at = row.lastIndexOf(PRINT_START);
    return at < 0
      ? []
      : [stripVTControlCharacters(row.slice(at + PRINT_START.length)).replace(/\r$/, '')];
  });

export interface TtyStep {
  /** Typed once the output holds this (after the previous step's match). */
  after: RegExp;
  keys: string;
  /** Awaited once the output matched, before the keys are typed (a check while the simulator still runs). */
  before?: () => Promise<void>;
  /** The terminal made this size once the output matched (after `before`), before the keys are typed. */
  resize?: TerminalSize;
}

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** A resize of the terminal, and how much of the output had come when it was made. */
export interface Resized extends TerminalSize {
  at: number;
}

/**
 * The pseudo-terminal `script` runs the simulator on, resized as a terminal's window is: the
 * kernel tells the simulator (SIGWINCH). `script` execs the simulator as its one child.
 */
const resizeTerminal = (scriptPid: number, size: TerminalSize): void => {
  const [simulator] = readFileSync(`/proc/${scriptPid}/task/${scriptPid}/children`, 'utf8')
    .trim()
    .split(/\s+/);
  const tty = readlinkSync(`/proc/${simulator}/fd/0`);
  execFileSync('stty', ['-F', tty, 'cols', String(size.columns), 'rows', String(size.rows)]);
};

/** The simulator's program, under dist/. */
export const SIMULATOR = join('sim', 'chat', 'main.js');

/** What a run on a terminal is given, after the program; `steps` may resize the terminal. */
type OnTty = [
  args: string[],
  env: Record<string, string>,
  steps: readonly TtyStep[],
  /** The folder it starts in: one of the test's, so a person's .env in the repository is not read. */
  cwd: string,
  /** The terminal's size; unset, `script`'s pseudo-terminal has none (no width to wrap at). */
  size?: TerminalSize | undefined,
  /** Keys typed once `when` resolves, whatever was printed (before the first output, say). */
  early?: { when: Promise<unknown>; keys: string } | undefined,
];

/** Runs the simulator on a terminal, typing `steps`; resolves to what it printed (escapes and all). */
export const runSimOnTty = (...run: OnTty): Promise<string> =>
  runProgramOnTty(SIMULATOR, ...run).then(({ output }) => output);

/**
 * The one runner: one of dist/'s programs (`program`: the simulator's, the model double's), or a
 * script named by its absolute path (scripts/start.mjs in a fresh clone's copy), on a terminal, typing `steps`; resolves to what it printed (escapes and all), where in it each step
 * matched, and each resize a step made.
 */
export const runProgramOnTty = (
  program: string,
  ...[args, env, steps, cwd, size, early]: OnTty
): Promise<{ output: string; resizes: Resized[]; matchedAt: number[] }> =>
  new Promise((resolve, reject) => {
    const entry = isAbsolute(program) ? program : join(repoRoot, 'dist', program);
    const simulator = [process.execPath, entry, ...args]
      .map(part => `'${part.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const command =
      size === undefined
        ? simulator
        : `stty cols ${size.columns} rows ${size.rows} && exec ${simulator}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd,
      env: { ...process.env, LAL_PROVIDER: '', LAL_MODEL: '', LAL_AUTH_TOKEN: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const resizes: Resized[] = [];
    const matchedAt: number[] = [];
    void early?.when.then(() => child.stdin.write(early.keys));
    let from = 0;
    let next = 0;
    // A step's `before` still running: the steps after it wait.
    let waiting = false;
    const typeWhatIsDue = () => {
      while (next < steps.length && !waiting) {
        const step = steps[next]!;
        const found = step.after.exec(output.slice(from));
        if (found === null) return;
        from += found.index + found[0].length;
        next += 1;
        matchedAt.push(output.length);
        const type = () => {
          if (step.resize !== undefined) {
            resizeTerminal(child.pid!, step.resize);
            resizes.push({ ...step.resize, at: output.length });
          }
          child.stdin.write(step.keys);
        };
        if (step.before === undefined) {
          type();
          continue;
        }
        waiting = true;
        step.before().then(
          () => {
            waiting = false;
            type();
            typeWhatIsDue();
          },
          (error: unknown) => {
            child.kill('SIGKILL');
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      typeWhatIsDue();
    });
    // Only a hung child meets this bound.
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve({ output, resizes, matchedAt });
    });
  });
