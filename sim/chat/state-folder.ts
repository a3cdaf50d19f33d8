/**
 * The simulator's own state folder, kept across runs (behaviour 10.1 in
 * docs/behaviour.md: "It remembers" holds in `npm start` too): what the
 * agent stored (./kept-store.ts) and the last runs' logs
 * (./agent-log-file.ts). It is `$XDG_STATE_HOME/lal-fae/<persona>`, else (XDG_STATE_HOME unset,
 * or relative, which the XDG spec says to ignore) `~/.local/state/lal-fae/<persona>` (its name from ./demo-double.ts's
 * stateNameFor: the demo's and the newest daemon's apart), made readable by its user only: it
 * holds the conversation.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { homeFolder } from './home-path.js';

/** A path as the person would type it: under their home folder, from `~`. */
export const shownPath = (
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): string => {
  const home = homeFolder(env);
  return path === home || path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
};
harden(shownPath);

/** XDG_STATE_HOME when set to an absolute path; the XDG Base Directory spec says to ignore a relative one. */
const xdgStateHome = (env: Readonly<Record<string, string | undefined>>): string | undefined => {
  const value = env.XDG_STATE_HOME;
  return value !== undefined && value.trim() !== '' && isAbsolute(value) ? value : undefined;
};

export const stateFolderFor = (
  env: Readonly<Record<string, string | undefined>>,
  persona: string,
): string => {
  const base = xdgStateHome(env) ?? join(homeFolder(env), '.local', 'state');
  return join(base, 'lal-fae', persona);
};
harden(stateFolderFor);

/** The line saying a relative XDG_STATE_HOME was ignored (it would have written into the folder npm start runs in). */
export const ignoredStateHome = (
  env: Readonly<Record<string, string | undefined>>,
): string | undefined => {
  const value = env.XDG_STATE_HOME;
  if (value === undefined || value.trim() === '' || xdgStateHome(env) !== undefined)
    return undefined;
  return `XDG_STATE_HOME is a relative path (${JSON.stringify(value)}), which the XDG Base Directory spec says to ignore: the state is kept under ~/.local/state instead.`;
};
harden(ignoredStateHome);

/** Why a folder on the way to the state folder cannot be had, in a person's words. */
const whyNot = (path: string, code: string | undefined): string =>
  code === 'ENOTDIR' || code === 'EEXIST'
    ? `${path} is a file, not a folder`
    : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? `${path} cannot be made: its folder is not writable (${code})`
      : `${path} cannot be made there (${code ?? 'unknown error'})`;

/**
 * Makes the folder (and its parents) when missing, each 0700, one at a time: Node's recursive
 * mkdir loops for good on a path under /proc (XDG_STATE_HOME=/proc/nope, issue 45), where each
 * step fails at once. A path that is there must be a folder.
 */
export const makeStateFolder = (
  folder: string,
): { ok: true; folder: string } | { ok: false; why: string } => {
  const steps: string[] = [];
  for (let path = folder; !steps.includes(path); path = dirname(path)) steps.unshift(path);
  for (const path of steps) {
    try {
      if (statSync(path).isDirectory()) continue;
      return { ok: false, why: whyNot(path, 'ENOTDIR') };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') return { ok: false, why: whyNot(path, code) };
    }
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (error) {
      return { ok: false, why: whyNot(path, (error as NodeJS.ErrnoException).code) };
    }
  }
  return { ok: true, folder };
};
harden(makeStateFolder);

/**
 * The line that stops `npm start` when the state folder cannot be made: the variable that chose
 * its place (XDG_STATE_HOME, else HOME), the path, why, and what to do (docs/troubleshooting.md).
 */
export const unmadeStateLine = (
  env: Readonly<Record<string, string | undefined>>,
  why: string,
): string => {
  const base = xdgStateHome(env);
  const name = base === undefined ? 'HOME' : 'XDG_STATE_HOME';
  const fix =
    base === undefined
      ? 'set XDG_STATE_HOME to a folder you can write to'
      : 'point XDG_STATE_HOME at a folder you can write to, or unset it to keep the state under ~/.local/state';
  return `${name} is ${base ?? homeFolder(env)}, where no state folder can be made: ${why}; ${fix}.`;
};
harden(unmadeStateLine);

/**
 * The state folder's name for a persona: the demo's apart, and the newest
 * daemon's apart from f0a46042a's (a daemon's ids, numbering and HOST are its
 * own, as two real daemons' are: one folder holding both would show the HOST
 * twice and number messages anew at each switch).
 */
export const stateNameFor = (persona: string, options: { demo: boolean; newest: boolean }) =>
  `${persona}${options.demo ? '-demo' : ''}${options.newest ? '-newest' : ''}`;
harden(stateNameFor);

/** The one line that says the person left and where the agent's state is kept (every way out: ./chat.ts). */
export const farewellLine = (
  persona: string,
  folder: string,
  env: Readonly<Record<string, string | undefined>>,
): string => `Left. ${persona}'s conversation and tools are kept in ${shownPath(folder, env)}.`;
harden(farewellLine);
