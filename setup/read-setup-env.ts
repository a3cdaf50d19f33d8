/**
 * The settings a setup script takes from its environment: which guest, which
 * persona, whether to restart a running agent, and FAE_CWD made absolute.
 * Every value is checked here, before anything is created in the daemon.
 */
import { b, Fail, makeError, q, X } from '@endo/errors';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { SourceEnv } from './passed-env.js';
import { FLAG_EXPECTED, readFlag } from '../providers/read-flag.js';

/** An on/off setting of the setup scripts; another word is refused, naming the setting. */
const readSetupFlag = (env: SourceEnv, name: string, fallback: boolean): boolean =>
  readFlag(
    env[name],
    fallback,
    () => Fail`${b(name)} must be ${b(FLAG_EXPECTED)}, got ${q(env[name])}`,
  );

export type Persona = 'lal' | 'fae';

/** The daemon's pet names: lower case letters, digits and `-`, at most 128 characters. */
const PET_NAME = /^[a-z0-9][a-z0-9-]{0,127}$/;
const PERSONAS: readonly Persona[] = ['lal', 'fae'];

/** The host's names for one guest and its agent caplet. */
export interface GuestNames {
  /** The guest's handle, the name mail is sent to (`lal`). */
  guestName: string;
  /** The guest's powers, what the agent runs with (`profile-for-lal`). */
  agentName: string;
  /** The running agent caplet (`controller-for-lal`). */
  controllerName: string;
}

export const guestNamesFor = (rawName: string, variable: string): GuestNames => {
  const guestName = rawName.trim();
  const names = {
    guestName,
    agentName: `profile-for-${guestName}`,
    controllerName: `controller-for-${guestName}`,
  };
  (PET_NAME.test(guestName) && PET_NAME.test(names.controllerName)) ||
    Fail`${b(variable)} must be a pet name: lower case letters, digits and "-", starting with a letter or digit, at most 113 characters; got ${q(rawName)}`;
  return harden(names);
};
harden(guestNamesFor);

/** LAL_PERSONA when it is set, else the fallback; anything but lal or fae is refused. */
export const readPersona = (env: SourceEnv, fallback: Persona): Persona => {
  const raw = (env.LAL_PERSONA ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  (PERSONAS as readonly string[]).includes(raw) ||
    Fail`LAL_PERSONA must be "lal" or "fae", got ${q(env.LAL_PERSONA)}`;
  return raw as Persona;
};
harden(readPersona);

/** LAL_RESTART=1 asks to replace a running agent; off by default. */
export const readRestart = (env: SourceEnv): boolean => readSetupFlag(env, 'LAL_RESTART', false);
harden(readRestart);

/** LAL_PIN=0 opts out of pinning the agent; pinned by default. */
export const readPin = (env: SourceEnv): boolean => readSetupFlag(env, 'LAL_PIN', true);
harden(readPin);

/**
 * The worker an agent and its tool caplets, or the agent manager, run in
 * (LAL_WORKER): by default one of their own, `worker-for-<guest>`, so a fault
 * in one of them (a worker the daemon ends) takes no other down (issue 35);
 * the daemon's main worker's name (MAIN, @main) or any other shares one.
 */
/** The worker of its own a guest's agent (or an isolated tool, by its pet name) runs in. */
export const ownWorker = (guestName: string): string => `worker-for-${guestName}`;
harden(ownWorker);

export const readWorker = (env: SourceEnv, guestName: string, mainWorker: string): string => {
  const raw = (env.LAL_WORKER ?? '').trim();
  if (raw === '') return ownWorker(guestName);
  raw === mainWorker ||
    /^[a-z0-9][a-z0-9-]{0,127}$/.test(raw) ||
    Fail`LAL_WORKER must be ${q(mainWorker)} (the daemon's main worker, shared) or a worker's pet name (lower case, digits, -), got ${q(raw)}`;
  return raw;
};
harden(readWorker);

/**
 * The worker for a guest that was given another name than asked
 * (our-agents.ts: `lal-2` beside upstream's `lal`): a worker of its own
 * follows the guest's name, a shared one stays.
 */
export const workerForChosen = (worker: string, askedGuest: string, chosenGuest: string): string =>
  worker === ownWorker(askedGuest) ? ownWorker(chosenGuest) : worker;
harden(workerForChosen);

/** Said after a caplet is started: which worker it runs in, and the setting that changes it. */
export const describeWorker = (worker: string, mainWorker: string): string =>
  worker === mainWorker
    ? `it runs in the daemon's main worker "${mainWorker}", shared with every caplet there (LAL_WORKER)`
    : `it runs in a worker of its own, "${worker}" (LAL_WORKER=${mainWorker} shares the daemon's main one)`;
harden(describeWorker);

/** LAL_FORM=0 leaves out the agent manager and its "Add an agent" form (newest daemon); on by default. */
export const readForm = (env: SourceEnv): boolean => readSetupFlag(env, 'LAL_FORM', true);
harden(readForm);

/**
 * FAE_CWD as an absolute path (relative to the directory the script runs
 * in), or undefined when unset. A caplet runs in the daemon's worker, whose
 * working directory is not the user's, so a relative path would mean
 * something else there.
 */
export const readFaeCwd = (env: SourceEnv, cwd: string): string | undefined => {
  const raw = env.FAE_CWD;
  if (raw === undefined || raw === '') return undefined;
  const absolute = path.resolve(cwd, raw);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    throw makeError(X`FAE_CWD does not exist: ${q(absolute)}`);
  }
  isDirectory || Fail`FAE_CWD is not a directory: ${q(absolute)}`;
  return absolute;
};
harden(readFaeCwd);

const readableFile = (absolute: string): boolean => {
  try {
    accessSync(absolute, constants.R_OK);
    return statSync(absolute).isFile();
  } catch {
    return false;
  }
};

/**
 * LAL_AUTH_TOKEN_FILE as an absolute path (relative to where the script
 * runs), checked to be a readable file, or undefined when unset. Only the
 * path goes to the daemon, which keeps it in its formula files; the caplet
 * reads the token when it starts. The token itself is never read here.
 */
export const readTokenFile = (env: SourceEnv, cwd: string): string | undefined => {
  const raw = env.LAL_AUTH_TOKEN_FILE;
  if (raw === undefined || raw === '') return undefined;
  // Named, never shown: the token is no part of the message.
  (env.LAL_AUTH_TOKEN ?? '') === '' ||
    Fail`set LAL_AUTH_TOKEN or LAL_AUTH_TOKEN_FILE, not both (LAL_AUTH_TOKEN_FILE keeps the token out of the daemon's files)`;
  const absolute = path.resolve(cwd, raw);
  readableFile(absolute) || Fail`LAL_AUTH_TOKEN_FILE must name a readable file: ${q(absolute)}`;
  return absolute;
};
harden(readTokenFile);

/** Said when the token itself is handed over: the daemon keeps it in clear text. */
export const TOKEN_AT_REST_ADVICE =
  'note: the daemon keeps LAL_AUTH_TOKEN in clear text in its state; put the token in a file only you can read and set LAL_AUTH_TOKEN_FILE=<path> instead';
harden(TOKEN_AT_REST_ADVICE);
