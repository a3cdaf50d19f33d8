/**
 * The host (the person's agent): its formula, what only it can do
 * (provideGuest, provideWorker, makeUnconfined, cancel, evaluate), and the
 * collection of a caplet once neither the host nor its PINS name it.
 */
import { makeCapletLauncher, moduleLoader } from './caplet-launcher.js';
import { makeHostPowers, type HostOnlyMethods } from './host-powers.js';
import { assertName, assertPetName, namePathFrom, quote } from './pet-name.js';
import type { Agent } from './agents.js';
import type { DaemonParts } from './daemon-parts.js';
import type { FormulaId, MakeCapletOptions, NameOrPath, ProvideGuestOptions } from './types.js';

const makeHostOnlyMethods = (host: Agent, parts: DaemonParts): HostOnlyMethods => {
  const { table, agents, caplets, mail, formulateGuest, revivePins, profile } = parts;
  const launch = makeCapletLauncher(host, parts);
  return {
    provideGuest: async (name?: string, guestOptions: ProvideGuestOptions = {}) => {
      if (name !== undefined) assertName(name);
      const { introducedNames = {}, agentName } = guestOptions;
      const existingId = name === undefined ? undefined : host.names.identifyLocal(name);
      let guest: Agent;
      let value: unknown;
      if (existingId !== undefined) {
        // Like the daemon: an existing name gives back what it names (the guest's handle).
        guest = agents.agentFor(existingId) as Agent;
        value = await table.provide(existingId);
      } else {
        if (name !== undefined) assertPetName(name);
        if (agentName !== undefined) assertPetName(agentName);
        guest = formulateGuest(host.handleId);
        if (name !== undefined) {
          guest.label = `guest ${quote(name)}`;
          host.names.write(name, guest.handleId);
        }
        if (agentName !== undefined) host.names.write(agentName, guest.agentId);
        value = guest.powers;
      }
      if (guest) {
        for (const [hostName, guestName] of Object.entries(introducedNames)) {
          const id = host.names.identifyLocal(hostName);
          if (id !== undefined) await guest.directory.write([guestName], id);
        }
      }
      return value;
    },
    provideWorker: async (nameOrPath: NameOrPath) => {
      const path = namePathFrom(nameOrPath);
      const existing = await host.directory.identify(...path);
      if (existing !== undefined) return table.provide(existing);
      const id = caplets.formulateWorker();
      await host.directory.write(path, id);
      return table.provide(id);
    },
    makeUnconfined: async (workerName, specifier, capletOptions: MakeCapletOptions = {}) => {
      const handle = await launch(moduleLoader(specifier), workerName, capletOptions);
      return handle.value;
    },
    cancel: async (nameOrPath: NameOrPath, reason?: Error) => {
      const id = await host.directory.identify(...namePathFrom(nameOrPath));
      if (id === undefined) throw Error(`Unknown pet name ${quote(nameOrPath)}`);
      await caplets.cancel(id, reason);
      // At f0a46042a the daemon revives PINS after each collection, which soon follows: a pinned
      // caplet comes back at once. The newest daemon revives PINS only at start (its manager.js):
      // a cancelled caplet, pinned or not, stays down until something provides it.
      if (profile !== 'newest') await revivePins();
    },
    makeChannel: (petName, proposedName) => parts.channels.make(host, petName, proposedName),
    evaluate: (_workerName, source, codeNames, petNamesOrPaths, resultName) =>
      mail.evaluateNow(host, source, codeNames, petNamesOrPaths, resultName),
  };
};

export const formulateHost = (parts: DaemonParts): Agent => {
  const { table, agents, caplets, mail, profile, pins, hostSpecials } = parts;
  const host = agents.formulateAgent(
    'host',
    undefined,
    agent => makeHostPowers(agent, table, mail, makeHostOnlyMethods(agent, parts), profile),
    hostSpecials,
  );
  // A caplet no pet store names any longer (the host's, its PINS, a guest's tools/) is
  // collected, which cancels it; one a guest still names lives on, as in the daemon.
  const isNamed = (id: FormulaId) =>
    host.names.reverseIdentify(id).length > 0 ||
    pins.reverseIdentify(id).length > 0 ||
    table.isNamed(id);
  host.names.onUnbind(id => caplets.collectIfUnnamed(id, isNamed));
  pins.onUnbind(id => caplets.collectIfUnnamed(id, isNamed));
  return host;
};
harden(formulateHost);
