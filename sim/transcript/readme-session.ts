/**
 * The README's first session, as a newcomer gets it: the command the README
 * prints beside it (`npm start -- --demo`, piped, in this folder), run as
 * printed, the model being the scripted double `--demo` starts. `npm run
 * transcript` prints it (`-- --write` puts it in the README);
 * test/readme-transcript.test.ts runs the README's own command and fails when
 * what it prints differs from the README's copy.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeError, q, X } from '@endo/errors';

/** What the person types, one line each; the simulator sends each once the agent is idle. */
const SESSION_INPUT: readonly string[] = [
  'ping',
  'what is 6 * 7? Work it out with code.',
  '/grant',
  '/attach math',
];

/** The command the README prints: run in this folder, it prints the session below it. */
export const SESSION_COMMAND = `printf '${SESSION_INPUT.join('\\n')}\\n' | npm start --silent -- --demo --persona fae`;
harden(SESSION_COMMAND);

/** The folder holding package.json, from here or from the built copy in dist/. */
const findRepoRoot = (from: string): string =>
  existsSync(join(from, 'package.json')) ? from : findRepoRoot(dirname(from));
export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
harden(repoRoot);

/** The one part of the session that differs from run to run: the log file's name says when it began. */
const LOG_NAME = /agent-[\dT-]+Z\.log/g;

/**
 * Runs `command` (a shell line, the README's) in this folder as a newcomer
 * would: a home folder of their own with nothing kept yet, no settings of
 * theirs; returns what it printed, the log's date made `<date>`.
 */
export const recordReadmeSession = async (command: string = SESSION_COMMAND): Promise<string> => {
  // A .env here would be read by npm start and said in the session: not a newcomer's.
  const dotEnv = join(repoRoot, '.env');
  if (existsSync(dotEnv))
    throw makeError(
      X`the README's session is what npm start prints with no .env in ${q(repoRoot)}: move ${q(dotEnv)} away to record it`,
    );
  const home = mkdtempSync(join(tmpdir(), 'lal-fae-transcript-'));
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn('sh', ['-c', command], {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          TMPDIR: home,
          // dist/ is built by whoever records (npm run transcript, npm test).
          LAL_SIM_NO_BUILD: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', code =>
        code === 0 ? resolve(out) : reject(Error(`${command} exited ${code}: ${err}${out}`)),
      );
    });
    return stdout.replace(LOG_NAME, 'agent-<date>.log').trimEnd();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};
harden(recordReadmeSession);
