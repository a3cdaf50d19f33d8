/**
 * Whether a sandbox can be made here, tried for real: bubblewrap found, its
 * namespaces created, the process bound set up, and `/bin/true` run inside.
 * Returns undefined when it works, else the one line that says why not and
 * how to fix it. runCommand asks before its first command; setup-tools asks
 * to warn the host when it provisions runCommand.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeChildEnv } from '../child-env.js';
import {
  findSandboxPrograms,
  planSandboxedRun,
  SANDBOX_HOME,
  SANDBOX_PATH,
  SANDBOX_ROOT,
} from './sandbox-plan.js';
import { readSandboxSettings } from './sandbox-settings.js';

const CHECK_TIMEOUT_MS = 10_000;

export const checkSandbox = async (
  searchPath: string | undefined = process.env.PATH,
): Promise<string | undefined> => {
  const programs = findSandboxPrograms(searchPath);
  if (typeof programs === 'string') return programs;
  const root = mkdtempSync(path.join(tmpdir(), 'lal-fae-sandbox-check-'));
  const plan = planSandboxedRun(programs, root, readSandboxSettings({}, 'sandbox check'), {
    file: '/bin/true',
    argv: [],
  });
  if (typeof plan === 'string') {
    rmdirSync(root);
    return plan;
  }
  try {
    return await new Promise<string | undefined>(resolve => {
      const child = spawn(plan.file, plan.argv, {
        cwd: root,
        env: makeChildEnv(process.env, {
          path: SANDBOX_PATH,
          home: SANDBOX_HOME,
          cwd: SANDBOX_ROOT,
        }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let said = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        said += chunk.toString('utf8');
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), CHECK_TIMEOUT_MS);
      child.on('error', error => {
        clearTimeout(timer);
        resolve(`bubblewrap cannot be started (${error.message})`);
      });
      child.on('close', code => {
        clearTimeout(timer);
        const why = said.trim().split('\n')[0]!;
        resolve(
          code === 0
            ? undefined
            : `bubblewrap is installed but cannot make a sandbox here (${why || `exit code ${code}`})`,
        );
      });
    });
  } finally {
    plan.release();
    rmdirSync(root);
  }
};
harden(checkSandbox);
