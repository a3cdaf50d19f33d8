/**
 * `npm start` run as a person's script runs it: `node scripts/start.mjs` with
 * stdin piped (so plain output), on the dist/ the test run built, with a state
 * folder and TMPDIR of the test's own; what it printed and its exit code.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHILD_MS } from './patience.js';
import { useRawServer } from './raw-http-server.js';
import { useTempFolders } from './temp-folders.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
}

interface Child {
  write(text: string): void;
  end(): void;
  /** Sends the simulator a signal (as Ctrl-C at a shell sends SIGINT to a piped run). */
  signal(name: NodeJS.Signals): void;
  /** The first match of `pattern` in what the child has printed, as soon as it is printed. */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
}
export type Feed = (child: Child) => void;

/** Starts `node scripts/start.mjs` with `args`; `feed` writes stdin (and must end it). */
export const makeSimRunner =
  (makeTempFolder: (label: string) => string) =>
  (args: string[], env: Record<string, string>, feed: Feed, given?: string): Promise<Run> =>
    new Promise((resolve, reject) => {
      // A folder of its own: the simulator reads the .env of the folder it starts in (README), and
      // a person's .env in the repository must not steer the tests.
      const cwd = given ?? makeTempFolder('cwd');
      const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'start.mjs'), ...args], {
        cwd,
        // The test run built dist/ already; a stray .env or shell setting must not steer the model.
        env: {
          ...process.env,
          LAL_SIM_NO_BUILD: '1',
          LAL_PROVIDER: '',
          LAL_MODEL: '',
          LAL_AUTH_TOKEN: '',
          // Its state folder (and log) and temporary files go in folders of this file's, removed after the tests.
          TMPDIR: makeTempFolder('sim'),
          XDG_STATE_HOME: makeTempFolder('state'),
          ...env,
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      // Only a hung child meets this bound; a loaded machine's run is far within it.
      const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
      child.on('error', reject);
      child.on('close', code => {
        clearTimeout(timer);
        resolve({ stdout, stderr, code });
      });
      feed({
        write: text => child.stdin.write(text),
        end: () => child.stdin.end(),
        signal: name => void child.kill(name),
        waitFor: pattern =>
          new Promise(found => {
            const look = () => {
              const match = pattern.exec(stdout);
              if (match === null) return;
              child.stdout.off('data', look);
              found(match);
            };
            child.stdout.on('data', look);
            look();
          }),
      });
    });

/**
 * `npm start --fresh` with `ping` typed and stdin ended, at a loopback server the test answers by
 * hand (raw-http-server.ts): what the start-up check says of a server that answers oddly or not at
 * all (docs/troubleshooting.md). Call it at the top of a test file; `serve` and `close` are the
 * server's, `start(env)` the run (`env` names the server: LAL_HOST, and LAL_MODEL where wanted).
 */
export const useStartAtRawServer = () => {
  const runSim = makeSimRunner(useTempFolders());
  const start = (env: Record<string, string>): Promise<Run> =>
    runSim(['--fresh'], env, child => {
      child.write('ping\n');
      child.end();
    });
  return { ...useRawServer(), start };
};
