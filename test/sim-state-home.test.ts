/**
 * An XDG_STATE_HOME where no state folder can be made (issue 45, trial 12): `npm start` stops at
 * once with one line naming the variable, the path and what to do, as its other start-up mistakes
 * do (docs/troubleshooting.md), exit code 1. Before, a path under /proc spun at full CPU for good
 * with no word (Node's recursive mkdir loops there), and a path through a file printed
 * `npm start failed: ENOTDIR: …`. The child is bounded (test/support/patience.ts) and killed, so a
 * hang fails this test rather than holding it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeStateFolder, unmadeStateLine } from '../sim/chat/state-folder.js';
import { WAIT_MS } from './support/patience.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const main = fileURLToPath(new URL('../dist/sim/chat/main.js', import.meta.url));

/** The simulator started with `stateHome` as XDG_STATE_HOME, killed if it has not ended within WAIT_MS. */
const startWith = (stateHome: string) =>
  spawnSync(process.execPath, [main, '--demo'], {
    cwd: makeTempFolder('cwd'),
    env: {
      ...process.env,
      LAL_PROVIDER: '',
      LAL_MODEL: '',
      LAL_AUTH_TOKEN: '',
      TMPDIR: makeTempFolder('tmp'),
      XDG_STATE_HOME: stateHome,
    },
    input: '/quit\n',
    encoding: 'utf8',
    timeout: WAIT_MS,
    killSignal: 'SIGKILL',
  });

describe('npm start with an XDG_STATE_HOME it cannot use', () => {
  it('under /proc: stops at once with one line saying what to do', () => {
    const run = startWith('/proc/nope');
    expect(run.signal, 'it hung').toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      'XDG_STATE_HOME is /proc/nope, where no state folder can be made: /proc/nope cannot be made there (ENOENT); point XDG_STATE_HOME at a folder you can write to, or unset it to keep the state under ~/.local/state.\n',
    );
    expect(run.stdout).toBe('');
  });

  it('through a file: stops with one line, not ENOTDIR', () => {
    const file = join(makeTempFolder('state'), 'a-file');
    writeFileSync(file, '');
    const run = startWith(file);
    expect(run.signal, 'it hung').toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `XDG_STATE_HOME is ${file}, where no state folder can be made: ${file} is a file, not a folder; point XDG_STATE_HOME at a folder you can write to, or unset it to keep the state under ~/.local/state.\n`,
    );
  });
});

describe('makeStateFolder', () => {
  it('makes the folder and its missing parents, mode 0700, and takes one that is there', () => {
    const base = makeTempFolder('state');
    const folder = join(base, 'a', 'b', 'lal-fae', 'lal');
    expect(makeStateFolder(folder)).toEqual({ ok: true, folder });
    expect(makeStateFolder(folder)).toEqual({ ok: true, folder });
    mkdirSync(join(base, 'c'));
    expect(makeStateFolder(join(base, 'c'))).toEqual({ ok: true, folder: join(base, 'c') });
  });
});

describe('unmadeStateLine', () => {
  it('names HOME when XDG_STATE_HOME chose nothing, and says to set XDG_STATE_HOME', () => {
    expect(unmadeStateLine({ HOME: '/home/nobody' }, '/home/nobody is a file, not a folder')).toBe(
      'HOME is /home/nobody, where no state folder can be made: /home/nobody is a file, not a folder; set XDG_STATE_HOME to a folder you can write to.',
    );
  });
});
