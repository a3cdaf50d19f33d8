/**
 * What the tests do to an agent from outside the daemon: find it by name,
 * count and trace the calls on its powers, fail its following, lose the next
 * directory it makes to a collection (f0a46042a's race), and see a
 * guest's ids, powers, inbox and open follows.
 */
import { MAILBOX_LOAD_ERROR } from './mailbox.js';
import { quote } from './pet-name.js';
import type { Agent } from './agents.js';
import type { DaemonParts } from './daemon-parts.js';
import type { GuestPowers, GuestView } from './types.js';

export const makeAgentControls = (host: Agent, { agents, special, table }: DaemonParts) => {
  /** The host (no name, HOST or its special name) or the guest the host names so. */
  const agentNamed = (name: string | undefined): Agent => {
    if (name === undefined || name === 'HOST' || name === special.host) return host;
    const id = host.names.identifyLocal(name);
    const agent = id === undefined ? undefined : agents.agentFor(id);
    if (agent === undefined || agent.kind !== 'guest')
      throw Error(`The host has no guest named ${quote(name)}`);
    return agent;
  };

  const guestNamed = (name: string): Agent => {
    const agent = agentNamed(name);
    if (agent.kind !== 'guest') throw Error(`${quote(name)} is the host, not a guest`);
    return agent;
  };

  return {
    agentNamed,
    failFollowing: (guestName: string, times: number) => {
      const agent = guestNamed(guestName);
      agent.followFaults = times;
      agent.mailbox.failFollowers(harden(Error(MAILBOX_LOAD_ERROR)));
    },
    recoverMailbox: (guestName: string) => {
      const agent = guestNamed(guestName);
      agent.mailbox.dropUnloadable();
      agent.loadError = undefined;
    },
    collectDuringNextMakeDirectory: () => table.armDirectoryCollection(),
    callCounts: (name: string) => Object.fromEntries(agentNamed(name).calls),
    resetCallCounts: (name: string) => agentNamed(name).calls.clear(),
    nameListingFailures: (name: string) => agentNamed(name).names.listingFailures(),
    nameChangesSent: (name: string) => agentNamed(name).names.changesSent(),
    storedBytes: (name: string) => Object.fromEntries(agentNamed(name).storedBytes),
    traceCalls: (name: string, listener: (method: string) => void) => {
      const { callListeners } = agentNamed(name);
      callListeners.add(listener);
      return () => callListeners.delete(listener);
    },
    traceDeliveries: (name: string, listener: () => void) => {
      const { deliveryListeners } = agentNamed(name);
      deliveryListeners.add(listener);
      return () => deliveryListeners.delete(listener);
    },
    guest: (name: string): GuestView => {
      const agent = guestNamed(name);
      return {
        id: agent.handleId,
        agentId: agent.agentId,
        get powers() {
          return agent.powers as GuestPowers;
        },
        inbox: () => agent.mailbox.list(),
        followers: () => agent.mailbox.followers(),
      };
    },
  };
};
harden(makeAgentControls);
