/**
 * What `npm start` says once at start about settings that would surprise a
 * newcomer (issue 45): a relative XDG_STATE_HOME, which the XDG Base
 * Directory spec says to ignore, is ignored (the state goes under the home
 * folder, not in the folder npm start runs in) and said so; `--verbose` with
 * LAL_LOG=off says why nothing of the log will show (docs/configuration.md).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const quit = (input: { write(t: string): void; end(): void }) => {
  input.write('ping\n');
  input.end();
};

describe('npm start, at its start', () => {
  it('ignores a relative XDG_STATE_HOME, as the spec says, and says so once', async () => {
    const home = makeTempFolder('home');
    const cwd = makeTempFolder('cwd');
    const run = await runSim(['--demo'], { HOME: home, XDG_STATE_HOME: 'relative/dir' }, quit, cwd);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^#\d+ lal › pong$/m);
    expect(existsSync(join(cwd, 'relative'))).toBe(false);
    expect(existsSync(join(home, '.local', 'state', 'lal-fae', 'lal-demo'))).toBe(true);
    expect(run.stderr).toBe(
      'warning: XDG_STATE_HOME is a relative path ("relative/dir"), which the XDG Base Directory spec says to ignore: the state is kept under ~/.local/state instead.\n',
    );
    expect(run.stdout).toContain("lal's state is kept in ~/.local/state/lal-fae/lal-demo");
  });

  it('--verbose with LAL_LOG=off says once that the log is off', async () => {
    const run = await runSim(['--demo', '--verbose'], { LAL_LOG: 'off' }, quit);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      "warning: --verbose shows the agent's log, but LAL_LOG=off keeps it empty, so nothing of it will show; set LAL_LOG=turns (or steps) to see it.\n",
    );
    // Without --verbose nothing is said: the log off is what was asked.
    const quiet = await runSim(['--demo'], { LAL_LOG: 'off' }, quit);
    expect(quiet.stderr).toBe('');
  });
});
