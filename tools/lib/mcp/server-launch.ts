/**
 * How a local MCP server is started: inside the bubblewrap sandbox that
 * runCommand uses (sandbox-plan.ts), its folder MCP_CWD the only writable
 * place and seen at its own path, no network unless MCP_ALLOW_NETWORK=1,
 * the sandbox's limits, and an environment of the allow list plus MCP_ENV.
 * Without a working sandbox it refuses, unless the host set MCP_UNSANDBOXED=1.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { makeChildEnv } from '../child-env.js';
import { checkSandbox } from '../sandbox/sandbox-check.js';
import {
  findSandboxPrograms,
  INSTALL_HINT,
  planSandboxedRun,
  SANDBOX_HOME,
  SANDBOX_PATH,
} from '../sandbox/sandbox-plan.js';
import type { ChildLaunch } from './child-transport.js';
import type { McpServerSpec } from './mcp-settings.js';

type StdioSpec = Extract<McpServerSpec, { kind: 'stdio' }>;

const OPT_OUT = 'or set MCP_UNSANDBOXED=1 to run the server unconfined';

/** Whether bubblewrap works here, asked once per bwrap found. */
const sandboxChecks = new Map<string, Promise<string | undefined>>();

/** The system folders the sandbox shows anyway. */
const SYSTEM = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/'];

/** The outermost `node_modules` a file is in (a package needs its dependencies too), else its folder. */
const packageTree = (file: string): string => {
  const parts = file.split('/');
  const at = parts.indexOf('node_modules');
  return at > 0 ? parts.slice(0, at + 1).join('/') : path.dirname(file);
};

/**
 * What the server may read besides the system: MCP_READ_ONLY, and the files of an absolute
 * command or script argument (`node /x/node_modules/pkg/dist/index.js`) outside MCP_CWD.
 */
const readOnlyPlaces = (spec: StdioSpec): string[] => {
  const places = new Set<string>(spec.readOnly);
  const add = (file: string) => {
    if (!path.isAbsolute(file)) return;
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      return;
    }
    if (SYSTEM.some(place => real.startsWith(place))) return;
    if (real === spec.cwd || real.startsWith(`${spec.cwd}/`)) return;
    places.add(packageTree(real));
  };
  add(spec.command);
  for (const arg of spec.args) if (/\.(?:c|m)?js$/.test(arg)) add(arg);
  return [...places].sort();
};
harden(readOnlyPlaces);

export const prepareServerLaunch = async (
  spec: StdioSpec,
): Promise<ChildLaunch & { sandbox: string }> => {
  if (spec.sandbox.unsandboxed) {
    return {
      file: spec.command,
      argv: spec.args,
      env: {
        ...makeChildEnv(process.env, {
          path: process.env.PATH ?? SANDBOX_PATH,
          home: spec.cwd,
          cwd: spec.cwd,
        }),
        ...spec.passEnv,
      },
      cwd: spec.cwd,
      release: () => {},
      sandbox: 'none (MCP_UNSANDBOXED)',
    };
  }
  const refuse = (why: string): never => {
    throw Error(`mcp: no sandbox, so the server was not started: ${why}`);
  };
  const searchPath = process.env.PATH;
  const programs = findSandboxPrograms(searchPath);
  if (typeof programs === 'string')
    return refuse(
      programs.includes('bwrap')
        ? `bubblewrap (bwrap) was not found on PATH: ${INSTALL_HINT}, ${OPT_OUT}`
        : `${programs.split(':')[0]}, ${OPT_OUT}`,
    );
  let check = sandboxChecks.get(programs.bwrap);
  if (check === undefined) {
    check = checkSandbox(searchPath);
    sandboxChecks.set(programs.bwrap, check);
  }
  const problem = await check;
  if (problem !== undefined) return refuse(`${problem.split(', or set')[0]}, ${OPT_OUT}`);
  const plan = planSandboxedRun(programs, spec.cwd, spec.sandbox, {
    file: spec.command,
    argv: spec.args,
    view: { rootAt: spec.cwd, readOnly: readOnlyPlaces(spec) },
  });
  if (typeof plan === 'string') return refuse(`${plan.split(', or set')[0]}, ${OPT_OUT}`);
  return {
    file: plan.file,
    argv: plan.argv,
    env: {
      ...makeChildEnv(process.env, { path: SANDBOX_PATH, home: SANDBOX_HOME, cwd: spec.cwd }),
      ...spec.passEnv,
    },
    cwd: spec.cwd,
    release: plan.release,
    sandbox: 'bubblewrap',
  };
};
harden(prepareServerLaunch);
