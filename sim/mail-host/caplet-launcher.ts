/**
 * Starting a caplet on the host's behalf, as the daemon's prepareMakeCaplet
 * and formulateUnconfined do: the env checked, the worker and the powers
 * found (or made) by name, the result named before `make` runs.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { M, mustMatch } from '@endo/patterns';
import { assertName, assertPetName, namePathFrom } from './pet-name.js';
import type { Agent } from './agents.js';
import type { DaemonParts } from './daemon-parts.js';
import type { CapletHandle, MakeCapletOptions, MakeFn } from './types.js';

const specifierToUrl = (specifier: string): string => {
  if (specifier.startsWith('file://')) return specifier;
  if (!isAbsolute(specifier)) {
    throw Error(
      `makeUnconfined cannot load ${JSON.stringify(specifier)}: the daemon takes a file:// URL or an absolute path, not a relative one`,
    );
  }
  return pathToFileURL(specifier).href;
};

/** What makeUnconfined loads: the module's `make`, imported when the caplet is made. */
export const moduleLoader = (specifier: string): (() => Promise<MakeFn>) => {
  const url = specifierToUrl(specifier);
  return async () => {
    const namespace = (await import(url)) as { make?: unknown };
    if (typeof namespace.make !== 'function') throw Error(`${url} does not export a make function`);
    return namespace.make as MakeFn;
  };
};
harden(moduleLoader);

export type LaunchCaplet = (
  load: () => Promise<MakeFn>,
  workerName: string | undefined,
  options: MakeCapletOptions,
) => Promise<CapletHandle>;

export const makeCapletLauncher =
  (host: Agent, { special, caplets, formulateGuest }: DaemonParts): LaunchCaplet =>
  async (load, workerName, { powersName = special.none, resultName, env = {} }) => {
    // Checked as the daemon's guard does; copied so the caller's object is not frozen.
    const envRecord = harden({ ...env });
    mustMatch(envRecord, M.recordOf(M.string(), M.string()), 'env');
    if (workerName !== undefined) assertName(workerName);
    if (![special.none, special.agent, special.endo].includes(powersName))
      assertPetName(powersName);
    let workerId = workerName === undefined ? undefined : host.names.identifyLocal(workerName);
    if (workerName !== undefined && workerId === undefined) {
      workerId = caplets.formulateWorker();
      host.names.write(assertPetName(workerName), workerId);
    }
    let powersId = host.names.identifyLocal(powersName);
    if (powersId === undefined) {
      // Like the daemon: an unknown powers name gets a new guest.
      powersId = formulateGuest(host.handleId).agentId;
      host.names.write(powersName, powersId);
    }
    return caplets.formulateCaplet({
      load,
      powersId,
      env: envRecord,
      ...(workerId === undefined ? {} : { workerId }),
      beforeStart: async id => {
        if (resultName !== undefined) await host.directory.write(namePathFrom(resultName), id);
      },
    });
  };
harden(makeCapletLauncher);
