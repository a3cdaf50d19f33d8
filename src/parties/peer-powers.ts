/**
 * The guest powers as a turn serving a party other than the HOST holds
 * them (docs/behaviour.md 9.6): a directory of the party's own
 * (./party.ts's `partyDirectory`: what it gave, adopted, and what the agent
 * made while serving it) is the top of every path, so the HOST's names, the
 * agent's special names (itself, its mail, its host) and its own store are
 * not there to be listed, looked up, attached, answered with or endowed;
 * the inbox is the party's messages; a message goes to the party or to the
 * HOST and nowhere else. Nothing is refused by pattern: a path is simply
 * read inside the party's directory, where only what is there exists.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { MessageRecord } from '../mail/message-record.js';
import { partyDirectory, PARTIES_DIRECTORY } from './party.js';

type NameOrPath = string | string[];

const asPath = (nameOrPath: NameOrPath): string[] =>
  typeof nameOrPath === 'string' ? nameOrPath.split('/') : [...nameOrPath];

export interface PeerPowersOptions {
  powers: PowersRef;
  /** The party served, by the name its mail is shown under. */
  name: string;
  hostName: string;
  /** A message's sender by name (src/mail/sender-names.ts). */
  nameOf: (id: unknown) => Promise<string>;
}

/** The powers of a turn serving `name`: see the module's comment. */
export const makePeerPowers = ({ powers, name, hostName, nameOf }: PeerPowersOptions) => {
  const parent = E(powers);
  const root = partyDirectory(name);
  const inside = (nameOrPath: NameOrPath): string[] => [...root, ...asPath(nameOrPath)];
  const insideAll = (paths: readonly NameOrPath[]) => paths.map(inside);
  const rootExists = async () => {
    const there: unknown = await Promise.resolve(parent.has(...root)).catch(() => false);
    return there === true;
  };
  /** Writes make the directory first (once it is there, it stays). */
  const made = async () => {
    if (await rootExists()) return;
    if (!(await parent.has(PARTIES_DIRECTORY))) await parent.makeDirectory(PARTIES_DIRECTORY);
    await parent.makeDirectory([...root]);
  };
  /** A read in a directory not made yet: the name is unknown, as in an empty directory. */
  const read = async <T>(path: readonly string[], run: () => Promise<T> | T): Promise<T> => {
    if (!(await rootExists()))
      throw new Error(`Unknown pet name: ${JSON.stringify(path[0] ?? '')}`);
    return run();
  };
  const write = async <T>(run: () => Promise<T> | T): Promise<T> => {
    await made();
    return run();
  };

  const partysMessages = async (): Promise<MessageRecord[]> => {
    const messages = (await parent.listMessages()) as MessageRecord[];
    const names = await Promise.all(messages.map(message => nameOf(message.from)));
    return messages.filter((_, index) => names[index] === name);
  };
  /** A message number of someone else's is no message here: said as the daemon says it. */
  const partysMessage = async (number: bigint): Promise<bigint> => {
    const mine = await partysMessages();
    if (!mine.some(message => message.number === number))
      throw new Error(`No such message #${number} from ${name}`);
    return number;
  };
  const recipient = (to: NameOrPath): string => {
    const spelt = asPath(to).join('/');
    if (spelt === name || spelt === hostName) return spelt;
    throw new Error(
      `No recipient named ${JSON.stringify(spelt)}: serving ${name}, you write to ${name} or ${hostName}`,
    );
  };

  return harden({
    help: (methodName?: string) =>
      methodName === undefined
        ? `Serving ${name}: your pet names are ${name}'s own (what ${name} gave you, adopted, and what you made for ${name}); you write to ${name} or ${hostName}.`
        : parent.help(methodName),
    // A path through a name that is not there is not had (the daemon throws for it).
    has: async (...path: string[]) =>
      (await rootExists()) && Promise.resolve(parent.has(...inside(path))).catch(() => false),
    identify: (...path: string[]) => read(path, () => parent.identify(...inside(path))),
    list: async (...path: string[]) =>
      path.length === 0 && !(await rootExists())
        ? []
        : read(path, () => parent.list(...inside(path))),
    listIdentifiers: (...path: string[]) =>
      read(path, () => parent.listIdentifiers(...inside(path))),
    lookup: (nameOrPath: NameOrPath) =>
      read(asPath(nameOrPath), () => parent.lookup(inside(nameOrPath))),
    remove: (...path: string[]) => read(path, () => parent.remove(...inside(path))),
    move: (from: string[], to: string[]) => read(from, () => parent.move(inside(from), inside(to))),
    copy: (from: string[], to: string[]) => read(from, () => parent.copy(inside(from), inside(to))),
    makeDirectory: (nameOrPath: NameOrPath) =>
      write(() => parent.makeDirectory(inside(nameOrPath))),
    storeValue: (value: unknown, nameOrPath: NameOrPath) =>
      write(() => parent.storeValue(value, inside(nameOrPath))),
    listMessages: partysMessages,
    send: async (to: NameOrPath, strings: string[], edgeNames: string[], petNames: NameOrPath[]) =>
      parent.send(recipient(to), strings, edgeNames, insideAll(petNames)),
    reply: async (number: bigint, strings: string[], edgeNames: string[], petNames: NameOrPath[]) =>
      parent.reply(await partysMessage(number), strings, edgeNames, insideAll(petNames)),
    dismiss: async (number: bigint) => parent.dismiss(await partysMessage(number)),
    adopt: async (number: bigint, edgeName: string, petName: NameOrPath) => {
      await partysMessage(number);
      return write(() => parent.adopt(number, edgeName, inside(petName)));
    },
    resolve: async (number: bigint, nameOrPath: NameOrPath) =>
      parent.resolve(await partysMessage(number), inside(nameOrPath)),
    reject: async (number: bigint, reason?: string) =>
      parent.reject(await partysMessage(number), reason),
    messageHistory: async (number: bigint) =>
      E(powers as unknown as { messageHistory(number: bigint): unknown }).messageHistory(
        await partysMessage(number),
      ),
    /** Where this party's names are in the guest's directory (asks made later place their names there). */
    directory: () => root,
    /** The recipient a message may go to from this turn, or why none. */
    recipient,
  });
};
harden(makePeerPowers);
