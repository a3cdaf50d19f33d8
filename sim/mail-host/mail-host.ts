/**
 * The simulated Endo daemon as guest caplets see it: one host, its guests,
 * their stores and mailboxes, caplets on CapTP loopbacks, eval-proposals and
 * a simulated restart. Used by the tests, the terminal simulator and the benchmark.
 */
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Far } from '@endo/far';
import { M, mustMatch } from '@endo/patterns';
import { makeAgentRegistry } from './agents.js';
import { makeCapletRunner, type WorkerConnection } from './caplets.js';
import { makeDirectoryMaker } from './directory.js';
import { evaluateSource } from './evaluate-source.js';
import { makeFormulaTable } from './formula-table.js';
import { isFormulaId, makeIdMinter } from './formula-id.js';
import { makeGuestPowers } from './guest-powers.js';
import { makeHostPowers } from './host-powers.js';
import { makeMailOps } from './mail-ops.js';
import { assertProfile, randomNumberOf, specialNamesOf, type DaemonProfile, type SpecialNames } from './profile.js';
import { MAILBOX_LOAD_ERROR } from './mailbox.js';
import { assertName, assertPetName, isName, isSpecialName, namePathFrom, quote } from './pet-name.js';
import type { Agent } from './agents.js';
import type { HostOnlyMethods } from './host-powers.js';
import type {
  CapletHandle,
  CounterProposal,
  FormulaId,
  GuestPowers,
  GuestView,
  HostPowers,
  MakeCapletOptions,
  MakeFn,
  MessageRecord,
  NameOrPath,
  ProvideGuestOptions,
  Settlement,
  StartCapletOptions,
  WaitForMessageOptions,
} from './types.js';

export interface MailHostOptions {
  /** The clock message dates come from. */
  now?: () => Date;
  /** Which daemon generation to play: f0a46042a (default) or the newest (see profile.ts). */
  profile?: DaemonProfile;
  /**
   * 'captp' (the default) runs caplets over CapTP loopbacks as the daemon's
   * workers do; 'direct' hands them the objects themselves, so a measurement
   * can leave out what the connection keeps (the bench's memory figure).
   */
  connection?: WorkerConnection;
}

export interface MailHost {
  /** The daemon generation this host plays. */
  readonly profile: DaemonProfile;
  /** Its special names by role (HOST or @host, …). */
  readonly special: SpecialNames;
  /** The host's powers (the person's agent), called directly or through E(). */
  readonly host: HostPowers;
  /** The host's SELF (handle) id: `from` of the host's messages. */
  readonly hostId: FormulaId;
  /** Runs a caplet's `make` on a guest's powers, as makeUnconfined does with a module. */
  startCaplet(make: MakeFn, options: StartCapletOptions): Promise<CapletHandle>;
  /**
   * The current incarnation of the caplet the host names `resultName`, or of
   * the caplet with that formula id: a look-up, which makes a dormant caplet again.
   */
  revive(resultNameOrId: NameOrPath): Promise<CapletHandle>;
  /**
   * The running caplet a name stands for — its resultName in the host's
   * directory, its worker's name, or its formula id — once its make has returned.
   */
  caplet(nameOrId: string): CapletHandle | undefined;
  /** A simulated daemon restart (see the module notes in index.ts). */
  restart(): Promise<void>;
  /**
   * Fails the guest's open followMessages iterators, and rejects its next
   * `times` followMessages calls, with the daemon's error for a mailbox it
   * cannot load (`Unknown message formula type`).
   */
  failFollowing(guestName: string, times: number): void;
  /**
   * The next makeDirectory (anyone's) loses its directory to a collection
   * before it is named, as the daemon at f0a46042a can: the name is written,
   * and using it fails with `No reference exists at path …/formulas/…`.
   */
  collectDuringNextMakeDirectory(): void;
  grant(messageNumber: bigint): Promise<unknown>;
  rejectProposal(messageNumber: bigint, reason?: string): Promise<void>;
  counterPropose(messageNumber: bigint, change: CounterProposal): Promise<void>;
  waitForMessage(pred: (message: MessageRecord) => boolean, options?: WaitForMessageOptions): Promise<MessageRecord>;
  callCounts(guestName: string): Record<string, number>;
  resetCallCounts(guestName: string): void;
  /** Calls `listener` with each method called on the guest's powers; returns a function that stops it. */
  traceCalls(guestName: string, listener: (method: string) => void): () => void;
  guest(name: string): GuestView;
}

const defaultWaitMs = 10_000;

/** One line per message, for error messages and logs. */
const describeMessage = (record: MessageRecord): string => {
  const from = record.from.slice(0, 8);
  switch (record.type) {
    case 'package': {
      const text = record.strings
        .map((part, index) => (index < record.names.length ? `${part}@${record.names[index]}` : part))
        .join('');
      return `#${record.number} package from ${from}…: ${JSON.stringify(text)}`;
    }
    case 'request':
    case 'form':
      return `#${record.number} ${record.type} from ${from}…: ${JSON.stringify(record.description)}`;
    case 'value':
      return `#${record.number} value from ${from}…`;
    default:
      return `#${record.number} ${record.type} from ${from}…: ${JSON.stringify(record.source.slice(0, 80))}`;
  }
};

const specifierToUrl = (specifier: string): string => {
  if (specifier.startsWith('file://')) return specifier;
  if (!isAbsolute(specifier)) {
    throw Error(
      `makeUnconfined cannot load ${JSON.stringify(specifier)}: the daemon takes a file:// URL or an absolute path, not a relative one`,
    );
  }
  return pathToFileURL(specifier).href;
};

export const makeMailHost = (options: MailHostOptions = {}): MailHost => {
  const now = options.now ?? (() => new Date());
  const profile = assertProfile(options.profile ?? 'f0a46042a');
  const special = specialNamesOf(profile);
  const table = makeFormulaTable(makeIdMinter(randomNumberOf(profile)));
  const directories = makeDirectoryMaker(table);
  const agents = makeAgentRegistry(table, directories, now, profile);
  const mail = makeMailOps(table, agents);
  const caplets = makeCapletRunner(table, options.connection);
  const guests: Agent[] = [];

  const leastAuthority = Far('EndoLeastAuthority', {});
  const noneId = table.formulate({ type: 'least-authority', provide: () => leastAuthority });
  const mainWorkerId = caplets.formulateWorker();
  // The host's PINS: what is named here is provided again when the daemon starts and after each collection.
  const pins = directories.formulateDirectory();
  /** The daemon's revivePins: provides every formula PINS names. */
  const revivePins = async (): Promise<void> => {
    const pinned = await pins.node.listIdentifiers();
    await Promise.allSettled(pinned.map(id => table.provide(id)));
  };

  const formulateGuest = (hostHandleId: FormulaId): Agent => {
    const guest = agents.formulateAgent('guest', hostHandleId, agent => makeGuestPowers(agent, table, mail, profile));
    guests.push(guest);
    return guest;
  };

  const hostOnly: HostOnlyMethods = {
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
      const url = specifierToUrl(specifier);
      const load = async (): Promise<MakeFn> => {
        const namespace = (await import(url)) as { make?: unknown };
        if (typeof namespace.make !== 'function') throw Error(`${url} does not export a make function`);
        return namespace.make as MakeFn;
      };
      const handle = await launch(load, workerName, capletOptions);
      return handle.value;
    },
    cancel: async (nameOrPath: NameOrPath, reason?: Error) => {
      const id = await host.directory.identify(...namePathFrom(nameOrPath));
      if (id === undefined) throw Error(`Unknown pet name ${quote(nameOrPath)}`);
      await caplets.cancel(id, reason);
      // The daemon revives PINS after each collection, which soon follows: a pinned caplet comes back at once.
      await revivePins();
    },
    evaluate: async (_workerName, source, codeNames, petNamesOrPaths, resultName) => {
      if (petNamesOrPaths.length !== codeNames.length) {
        throw Error('Evaluator requires one pet name for each code name');
      }
      const values = await Promise.all(petNamesOrPaths.map(path => host.directory.lookup(path)));
      const value = await evaluateSource(source, codeNames, values);
      const id = table.formulate({ type: 'eval', provide: () => value });
      table.remember(value, id);
      if (resultName !== undefined) await host.directory.write(namePathFrom(resultName), id);
      return value;
    },
  };

  const host = agents.formulateAgent(
    'host',
    undefined,
    agent => makeHostPowers(agent, table, mail, hostOnly, profile),
    { [special.main]: mainWorkerId, [special.none]: noneId, [special.pins]: pins.id },
  );
  // A caplet neither the host nor its PINS name any longer is collected, which cancels it.
  const isNamed = (id: FormulaId) => host.names.reverseIdentify(id).length > 0 || pins.store.reverseIdentify(id).length > 0;
  host.names.onUnbind(id => caplets.collectIfUnnamed(id, isNamed));
  pins.store.onUnbind(id => caplets.collectIfUnnamed(id, isNamed));

  /** Shared by makeUnconfined and startCaplet: the daemon's prepareMakeCaplet + formulateUnconfined. */
  const launch = async (
    load: () => Promise<MakeFn>,
    workerName: string | undefined,
    { powersName = special.none, resultName, env = {} }: MakeCapletOptions,
  ): Promise<CapletHandle> => {
    // Checked as the daemon's guard does; copied so the caller's object is not frozen.
    const envRecord = harden({ ...env });
    mustMatch(envRecord, M.recordOf(M.string(), M.string()), 'env');
    if (workerName !== undefined) assertName(workerName);
    if (![special.none, special.agent, special.endo].includes(powersName)) assertPetName(powersName);
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

  const agentNamed = (name: string | undefined): Agent => {
    if (name === undefined || name === 'HOST' || name === special.host) return host;
    const id = host.names.identifyLocal(name);
    const agent = id === undefined ? undefined : agents.agentFor(id);
    if (agent === undefined || agent.kind !== 'guest') throw Error(`The host has no guest named ${quote(name)}`);
    return agent;
  };

  const settledFor = (promiseId: string): Promise<Settlement> =>
    table.provide(promiseId).then(
      () => 'fulfilled',
      () => 'rejected',
    );

  const restart = async (): Promise<void> => {
    const stuck = host.mailbox.unloadable();
    if (stuck.length > 0) {
      const list = stuck.map(({ number, type }) => `#${number} (${type})`).join(', ');
      throw Error(
        `Cannot restart: HOST's mailbox holds undismissed ${list}; the daemon cannot reload eval-proposal messages, so HOST would fail to load. Dismiss them first.`,
      );
    }
    await caplets.stopAll(harden(Error('The daemon is restarting')));
    const disconnected = harden(Error('Disconnected: the daemon restarted'));
    for (const guest of guests) {
      guest.incarnation += 1;
      guest.mailbox.disconnect(disconnected);
      try {
        guest.mailbox.reload(settledFor);
        guest.loadError = undefined;
      } catch (error) {
        // The daemon's own error, as every call on the guest's powers then rejects with it.
        guest.loadError = error as Error;
      }
      guest.powers = makeGuestPowers(guest, table, mail, profile);
      table.remember(guest.powers, guest.agentId);
    }
    host.mailbox.reload(settledFor);
    // Only pinned formulas are provided at start; the rest wait for a look-up.
    await revivePins();
  };

  const waitForMessage = (
    pred: (message: MessageRecord) => boolean,
    { who, timeoutMs = defaultWaitMs }: WaitForMessageOptions = {},
  ): Promise<MessageRecord> => {
    const agent = agentNamed(who);
    const already = agent.mailbox.list().find(pred);
    if (already) return Promise.resolve(already);
    const feed = agent.mailbox.subscribeNew();
    return new Promise<MessageRecord>((resolve, reject) => {
      const timer = setTimeout(() => {
        feed.end();
        const inbox = agent.mailbox.list().map(describeMessage);
        reject(
          Error(
            `No matching message in ${who ?? 'HOST'}'s inbox after ${timeoutMs} ms; it holds ${inbox.length} message(s)${
              inbox.length ? `:\n  ${inbox.join('\n  ')}` : ''
            }`,
          ),
        );
      }, timeoutMs);
      const watch = async () => {
        for (;;) {
          const { done, value } = await feed.next();
          if (done) return;
          if (pred(value)) {
            clearTimeout(timer);
            feed.end();
            resolve(value);
            return;
          }
        }
      };
      watch().catch(error => {
        clearTimeout(timer);
        reject(error);
      });
    });
  };

  return {
    profile,
    special,
    host: host.powers as HostPowers,
    hostId: host.handleId,
    startCaplet: (make, { powersName, resultName, env, workerName }) =>
      launch(async () => make, workerName, {
        powersName,
        ...(resultName === undefined ? {} : { resultName }),
        ...(env === undefined ? {} : { env }),
      }),
    revive: async resultNameOrId => {
      const id =
        typeof resultNameOrId === 'string' && isFormulaId(resultNameOrId)
          ? resultNameOrId
          : await host.directory.identify(...namePathFrom(resultNameOrId));
      if (id === undefined) throw Error(`The host has nothing named ${quote(resultNameOrId)}`);
      return caplets.current(id);
    },
    caplet: nameOrId => {
      const named = isName(nameOrId) && !isSpecialName(nameOrId) ? host.names.identifyLocal(nameOrId) : undefined;
      return caplets.find((id, workerId) => id === nameOrId || (named !== undefined && (id === named || workerId === named)));
    },
    restart,
    failFollowing: (guestName, times) => {
      const agent = agentNamed(guestName);
      if (agent.kind !== 'guest') throw Error(`${quote(guestName)} is the host, not a guest`);
      agent.followFaults = times;
      agent.mailbox.failFollowers(harden(Error(MAILBOX_LOAD_ERROR)));
    },
    collectDuringNextMakeDirectory: () => table.armDirectoryCollection(),
    grant: number => mail.grant(host, number),
    rejectProposal: (number, reason) => mail.rejectProposal(host, number, reason),
    counterPropose: async (number, change) => {
      if (change.codeNames === undefined && change.petNamePaths === undefined) {
        const original = mail.mustGetProposal(host, number);
        await mail.counter(host, number, {
          source: change.source,
          codeNames: original.codeNames,
          petNamePaths: original.petNamePaths,
          edgeNames: original.edgeNames,
          ids: original.ids,
          workerName: change.workerName ?? original.workerName,
          resultName: change.resultName,
        });
        return;
      }
      await mail.counterEvaluate(
        host,
        number,
        change.source,
        change.codeNames ?? [],
        change.petNamePaths ?? [],
        change.workerName,
        change.resultName?.split('.'),
      );
    },
    waitForMessage,
    callCounts: name => Object.fromEntries(agentNamed(name).calls),
    resetCallCounts: name => agentNamed(name).calls.clear(),
    traceCalls: (name, listener) => {
      const { callListeners } = agentNamed(name);
      callListeners.add(listener);
      return () => callListeners.delete(listener);
    },
    guest: name => {
      const agent = agentNamed(name);
      if (agent.kind !== 'guest') throw Error(`${quote(name)} is the host, not a guest`);
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
