/**
 * The simulator's own state folder, kept across runs (behaviour 10.1 in
 * docs/behaviour.md: "It remembers" holds in `npm start` too): what the
 * agent stored (./kept-store.ts) and the last runs' logs
 * (./agent-log-file.ts). It is `$XDG_STATE_HOME/lal-fae/<persona>`, else (XDG_STATE_HOME unset,
 * or relative, which the XDG spec says to ignore) `~/.local/state/lal-fae/<persona>` (its name from ./demo-double.ts's
 * stateNameFor: the demo's and the newest daemon's apart), made readable by its user only: it
 * holds the conversation.
 */
import { mkdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
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

/** Makes the folder (and its parents) when missing; its own mode is 0700. */
export const makeStateFolder = (folder: string): string => {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
};
harden(makeStateFolder);

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
