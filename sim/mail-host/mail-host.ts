/**
 * The simulated Endo daemon as guest caplets see it: one host, its guests,
 * their stores and mailboxes, caplets on CapTP loopbacks, eval-proposals and
 * a simulated restart. Used by the tests, the terminal simulator and the benchmark.
 */
import { makeAgentControls } from './agent-controls.js';
import { makeCapletLauncher } from './caplet-launcher.js';
import type { WorkerConnection } from './caplets.js';
import { makeDaemonParts } from './daemon-parts.js';
import { makeRestart } from './daemon-restart.js';
import { formulateHost } from './host-agent.js';
import { makeHostReview } from './host-review.js';
import { assertPetName, isName, isSpecialName, namePathFrom, quote } from './pet-name.js';
import { randomNumberOf, type DaemonProfile, type SpecialNames } from './profile.js';
import { isFormulaId, makeIdMinter } from './formula-id.js';
import type { SeededIdentity } from './seeded-ids.js';
import { makeWaitForMessage } from './wait-for-message.js';
import { notifyMention } from './channel-mention.js';
import { envelopeToPutBack, keptMessage } from './kept-mail.js';
import { keepChannels, putBackChannels, type KeptChannelNames } from './kept-channels.js';
import type { KeptOutcome } from './promise-formula.js';
import type {
  CapletHandle,
  CounterProposal,
  Envelope,
  FormulaId,
  GuestView,
  HostPowers,
  MakeFn,
  MessageRecord,
  NameOrPath,
  StartCapletOptions,
  WaitForMessageOptions,
} from './types.js';

/**
 * A message as a state folder keeps it between runs (its number written
 * out); a request with how its promise stood, as the daemon keeps both.
 */
export interface KeptMessage {
  number: string;
  envelope: Envelope;
  date: string;
  outcome?: KeptOutcome;
}

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
  /**
   * The node's number and the ids formulated at start drawn from a seed, so a
   * host made again with it is the same daemon (./seeded-ids.ts); random otherwise.
   */
  identity?: SeededIdentity;
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
   * directory, its worker's name (the newest caplet on it; MAIN or @main for the
   * main worker), or its formula id — once its make has returned.
   */
  caplet(nameOrId: string): CapletHandle | undefined;
  /** How many formula ids this daemon has minted so far (what `identity.seeded` counts). */
  mintedIds(): number;
  /** Each agent's next message number, by its AGENT id. */
  messageNumbers(): Record<FormulaId, string>;
  /** Each agent named goes on numbering its messages from the number given (never back). */
  continueNumbering(next: Readonly<Record<FormulaId, string>>): void;
  /**
   * Each agent's undismissed text messages and requests (the HOST's requests
   * only, and those of its text messages `keepForHost` names), by its AGENT
   * id, as JSON keeps them.
   */
  keptMail(keepForHost?: (envelope: Envelope) => boolean): Record<FormulaId, KeptMessage[]>;
  /** Puts back the messages `keptMail` gave, each guest's under its numbers (a daemon's inbox outlives it). */
  putBackMail(kept: Readonly<Record<FormulaId, readonly KeptMessage[]>>): void;
  /** The newest daemon's channels, with the names that reach them, as JSON keeps them (./kept-channels.ts). */
  keptChannels(): KeptChannelNames[];
  /** Makes again the channels `keptChannels` gave, under their ids and names (once the guests' stores are back). */
  putBackChannels(kept: readonly unknown[]): Promise<void>;
  /** A simulated daemon restart (see the module notes in index.ts). */
  restart(): Promise<void>;
  /**
   * Fails the guest's open followMessages iterators, and rejects its next
   * `times` followMessages calls, with the daemon's error for a mailbox it
   * cannot load (`Unknown message formula type`).
   */
  failFollowing(guestName: string, times: number): void;
  /**
   * The HOST's recovery from a mailbox the daemon cannot load (docs/daemon-guide.md): its
   * eval-proposal messages removed, the guest's powers load again.
   */
  recoverMailbox(guestName: string): void;
  /**
   * The next makeDirectory (anyone's) loses its directory to a collection
   * before it is named, as the daemon at f0a46042a can: the name is written,
   * and using it fails with `No reference exists at path …/formulas/…`.
   */
  collectDuringNextMakeDirectory(): void;
  grant(messageNumber: bigint): Promise<unknown>;
  rejectProposal(messageNumber: bigint, reason?: string): Promise<void>;
  counterPropose(messageNumber: bigint, change: CounterProposal): Promise<void>;
  waitForMessage(
    pred: (message: MessageRecord) => boolean,
    options?: WaitForMessageOptions,
  ): Promise<MessageRecord>;
  callCounts(guestName: string): Record<string, number>;
  resetCallCounts(guestName: string): void;
  /**
   * How many of the guest's followNameChanges listings failed on a name removed while they
   * were read; each is a rejection the real daemon's CapTP writes into the worker's log.
   */
  nameListingFailures(guestName: string): number;
  /**
   * How many name-change messages the followers of the guest's own directory were sent so far
   * (each change once to each follower: an overwritten name is a removal and an addition).
   */
  nameChangesSent(guestName: string): number;
  /** Bytes the guest has written with storeValue so far, by the first name of each path. */
  storedBytes(guestName: string): Record<string, number>;
  /** Calls `listener` with each method called on the guest's powers; returns a function that stops it. */
  traceCalls(guestName: string, listener: (method: string) => void): () => void;
  /** Calls `listener` each time another's message lands in the guest's inbox; returns a function that stops it. */
  traceDeliveries(guestName: string, listener: () => void): () => void;
  guest(name: string): GuestView;
  /**
   * The newest daemon's chat UI after the host's post in `channel` names `@party`: an
   * invitation under the party's name if it has none, and the mention notification in its
   * inbox (sim/mail-host/channel-mention.ts). `threadKey`: the message the mention replied to.
   */
  mentionInChannel(
    channel: string,
    party: string,
    options?: { threadKey?: string; displayName?: string },
  ): Promise<void>;
  /**
   * An agent of a second daemon connected over Endo's network (a peer): a
   * guest whose ids carry that daemon's node, so its messages' `from` does
   * too; the host knows its handle as `name` and introduces it to names of
   * its own (`introducedNames`, host name → its name). Its powers are
   * `guest(name).powers`. One peer daemon per mail host.
   */
  providePeerGuest(
    name: string,
    options?: { introducedNames?: Record<string, string> },
  ): Promise<void>;
}

export const makeMailHost = (options: MailHostOptions = {}): MailHost => {
  const parts = makeDaemonParts(options);
  const { profile, special, caplets } = parts;
  const host = formulateHost(parts);
  const launch = makeCapletLauncher(host, parts);
  const { agentNamed, ...agentControls } = makeAgentControls(host, parts);
  const peerNode = makeIdMinter(randomNumberOf(profile));

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
      // Of the special names only the main worker's (MAIN, @main) stands for caplets: those on it.
      const named =
        isName(nameOrId) && (!isSpecialName(nameOrId) || nameOrId === special.main)
          ? host.names.identifyLocal(nameOrId)
          : undefined;
      return caplets.find(
        (id, workerId) =>
          id === nameOrId || (named !== undefined && (id === named || workerId === named)),
      );
    },
    mintedIds: parts.minted,
    messageNumbers: () =>
      Object.fromEntries(
        [host, ...parts.guests].map(agent => [agent.agentId, String(agent.mailbox.nextNumber())]),
      ),
    continueNumbering: next => {
      for (const agent of [host, ...parts.guests]) {
        const number = next[agent.agentId];
        if (number !== undefined && /^\d+$/.test(number))
          agent.mailbox.continueFrom(BigInt(number));
      }
    },
    keptMail: (keepForHost = () => false) =>
      Object.fromEntries(
        [host, ...parts.guests].map(agent => [
          agent.agentId,
          agent.mailbox
            .keptMessages()
            // What HOST was told is shown once, in the run it came; a request waits for its answer.
            .filter(
              ({ envelope }) =>
                agent !== host || envelope.type === 'request' || keepForHost(envelope),
            )
            .map(({ number, envelope, date }) => keptMessage(parts.table, number, envelope, date)),
        ]),
      ),
    putBackMail: kept => {
      for (const agent of [host, ...parts.guests]) {
        for (const message of kept[agent.agentId] ?? []) {
          const envelope = envelopeToPutBack(parts.table, message);
          if (/^\d+$/.test(message.number) && envelope !== undefined)
            agent.mailbox.putBack(BigInt(message.number), envelope, message.date);
        }
      }
    },
    keptChannels: () => keepChannels(parts, host),
    putBackChannels: kept => putBackChannels(parts, host, kept),
    restart: makeRestart(host, parts),
    providePeerGuest: async (name, { introducedNames = {} } = {}) => {
      assertPetName(name);
      const guest = parts.formulateGuest(host.handleId, peerNode.mint);
      guest.label = `guest ${quote(name)} of a peer daemon`;
      host.names.write(name, guest.handleId);
      for (const [hostName, guestName] of Object.entries(introducedNames)) {
        const id = host.names.identifyLocal(hostName);
        if (id !== undefined) await guest.directory.write([guestName], id);
      }
    },
    mentionInChannel: (channel, party, mentionOptions = {}) =>
      notifyMention(host.powers, { channel, party, ...mentionOptions }),
    ...makeHostReview(host, parts.mail),
    waitForMessage: makeWaitForMessage(agentNamed),
    ...agentControls,
  };
};
harden(makeMailHost);
