/**
 * The directory and mail methods an agent's powers expose, bound to one agent
 * and gated: each call is counted, and powers from before a restart (or of an
 * agent the daemon could not reload) refuse to work.
 */
import { passStyleOf } from '@endo/pass-style';
import { isFormulaId } from './formula-id.js';
import { makeIteratorRef } from './iterator-ref.js';
import { MAILBOX_LOAD_ERROR } from './mailbox.js';
import { namePathFrom } from './pet-name.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { MailOps } from './mail-ops.js';
import type { Envelope, FormulaId, NameOrPath } from './types.js';

const unsupported = (method: string) => async () => {
  throw Error(`${method} is not supported by the mail-host simulator`);
};

const idFromLocator = (locator: string): FormulaId => {
  const url = new URL(locator);
  const id = `${url.searchParams.get('id')}:${url.hostname}`;
  if (url.protocol !== 'endo:' || !isFormulaId(id))
    throw Error(`Invalid locator ${JSON.stringify(locator)}`);
  return id;
};

/** What a stored value weighs as the daemon would write it: a string's UTF-8 bytes, else its JSON's. */
const storedSize = (value: unknown): number => {
  try {
    const text =
      typeof value === 'string'
        ? value
        : JSON.stringify(value, (_key, item: unknown) =>
            typeof item === 'bigint' ? `+${item}` : item,
          );
    return new TextEncoder().encode(text ?? '').length;
  } catch {
    // A value holding remotables has no JSON form; its identity is what the daemon writes.
    return 0;
  }
};

export const makeAgentMethods = (agent: Agent, table: FormulaTable, mail: MailOps) => {
  const { directory, mailbox } = agent;
  return {
    has: (...path: string[]) => directory.has(...path),
    identify: (...path: string[]) => directory.identify(...path),
    reverseIdentify: (id: string) => agent.names.reverseIdentify(id),
    locate: (...path: string[]) => directory.locate(...path),
    reverseLocate: async (locator: string) => agent.names.reverseIdentify(idFromLocator(locator)),
    followLocatorNameChanges: unsupported('followLocatorNameChanges'),
    list: (...path: string[]) => directory.list(...path),
    listIdentifiers: (...path: string[]) => directory.listIdentifiers(...path),
    followNameChanges: async () => makeIteratorRef(directory.followNameChanges()),
    lookup: (nameOrPath: NameOrPath) => directory.lookup(nameOrPath),
    lookupById: (id: string) => table.provide(id),
    reverseLookup: (value: unknown) => directory.reverseLookup(value),
    write: (nameOrPath: NameOrPath, id: string) => directory.write(nameOrPath, id),
    remove: (...path: string[]) => directory.remove(...path),
    move: (fromPath: string[], toPath: string[]) => directory.move(fromPath, toPath),
    copy: (fromPath: string[], toPath: string[]) => directory.copy(fromPath, toPath),
    makeDirectory: (nameOrPath: NameOrPath) => directory.makeDirectory(nameOrPath),
    storeValue: async (value: unknown, nameOrPath: NameOrPath) => {
      const path = namePathFrom(nameOrPath);
      passStyleOf(value);
      const top = path[0]!;
      agent.storedBytes.set(top, (agent.storedBytes.get(top) ?? 0) + storedSize(value));
      // Kept as the hardened passable itself: it survives a restart like the daemon's marshal formula.
      const id = table.idOf(value) ?? table.formulate({ type: 'marshal', provide: () => value });
      table.remember(value, id);
      await directory.write(path, id);
    },
    handle: () => agent.handle,
    listMessages: async () => harden(mailbox.list()),
    followMessages: async () => {
      if (agent.followFaults > 0) {
        agent.followFaults -= 1;
        throw Error(MAILBOX_LOAD_ERROR);
      }
      return makeIteratorRef(mailbox.follow());
    },
    send: (recipient: NameOrPath, strings: string[], edgeNames: string[], petNames: NameOrPath[]) =>
      mail.send(agent, recipient, strings, edgeNames, petNames),
    reply: (number: bigint, strings: string[], edgeNames: string[], petNames: NameOrPath[]) =>
      mail.reply(agent, number, strings, edgeNames, petNames),
    dismiss: (number: bigint) => mail.dismiss(agent, number),
    dismissAll: () => mail.dismissAll(agent),
    adopt: (number: bigint, edgeName: NameOrPath, petName: NameOrPath) =>
      mail.adopt(agent, number, edgeName, petName),
    request: (recipient: NameOrPath, description: string, responseName?: NameOrPath) =>
      mail.request(agent, recipient, description, responseName),
    resolve: (number: bigint, nameOrPath: NameOrPath) => mail.resolve(agent, number, nameOrPath),
    reject: (number: bigint, reason?: string) => mail.reject(agent, number, reason),
    deliver: (envelope: Envelope) => {
      // The daemon's internal delivery entry point; only well-formed packages are taken here.
      if (envelope.type !== 'package' || !Array.isArray(envelope.strings)) {
        throw Error('deliver takes a package envelope');
      }
      mailbox.deliver(harden(envelope));
    },
  };
};
harden(makeAgentMethods);

/** The methods whose guards return a plain value. */
const syncMethods = new Set(['help', 'reverseIdentify', 'handle', 'deliver']);

/**
 * Wraps each method: counts it, and refuses once these powers are stale.
 * `incarnation` is the agent's incarnation when the powers were made.
 */
export const gateMethods = <T extends Record<string, (...args: never[]) => unknown>>(
  agent: Agent,
  incarnation: number,
  methods: T,
): T => {
  const gated: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(methods)) {
    const check = () => {
      agent.calls.set(name, (agent.calls.get(name) ?? 0) + 1);
      for (const listener of agent.callListeners) listener(name);
      if (agent.incarnation !== incarnation) {
        throw Error(`Disconnected: ${agent.label}'s powers are from before the daemon restarted`);
      }
      if (agent.loadError) throw agent.loadError;
    };
    gated[name] = (...args: never[]) => {
      try {
        check();
      } catch (error) {
        // Methods guarded to return a promise must reject rather than throw.
        if (syncMethods.has(name)) throw error;
        return Promise.reject(error);
      }
      return method(...args);
    };
  }
  return gated as T;
};
harden(gateMethods);
