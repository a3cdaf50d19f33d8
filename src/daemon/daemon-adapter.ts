/**
 * One small adapter per daemon generation, so the rest of the agent does not
 * know which daemon it lives in: the special names (HOST or @host…), how a
 * message names its sender (a formula id, or an `endo://` locator), the mail
 * stream (a remote iterator, or an exo-stream reader), naming a formula id
 * (`write` or `storeIdentifier`), and whether messages can be edited.
 */
import { E } from '@endo/far';
import type { Log } from '../log/log.js';
import { detectGeneration, GENERATION_LABELS, type Generation } from './generation.js';
import { readStream } from './stream-reader-client.js';
import { SPECIAL_NAMES, type GuestSpecialNames } from './special-names.js';

/** What following the mail yields: `next()` until done, `return()` to stop. */
export interface MailStream {
  next(): Promise<IteratorResult<unknown>>;
  return(value?: unknown): Promise<unknown>;
}

export interface DaemonAdapter {
  readonly generation: Generation;
  /** One line for help(). */
  readonly label: string;
  readonly names: Readonly<GuestSpecialNames>;
  /** Messages can be revised by their sender (`editMessage`, `done`, `messageHistory`). */
  readonly canEdit: boolean;
  /** The guest's own (SELF) id: its node part is this daemon's. */
  readonly selfId: string | undefined;
  /** The formula id a message field names (a locator is read back to its id). */
  idOf(idOrLocator: unknown): string | undefined;
  /** Whether this message is the guest's own (a copy of what it sent). */
  isOwn(message: { from?: unknown }): boolean;
  /** Starts following the mail. */
  follow(): Promise<MailStream>;
  /** Names a formula id in the guest's directory. */
  storeIdentifier(path: string[], id: string): Promise<void>;
  /**
   * Follows a directory's name changes (a directory reached by lookup): first
   * every name it holds, then each `{ add }` / `{ remove }` as it happens.
   */
  followNameChanges(directory: unknown): Promise<MailStream>;
}

/**
 * `endo://<node>/<number>[@hints…]?type=…` → `<number>:<node>`. Ids pass
 * through; anything else is undefined.
 */
export const idFromLocator = (value: unknown): string | undefined => {
  if (typeof value !== 'string' || value === '') return undefined;
  if (!value.startsWith('endo://')) return /^[0-9a-f]+:[0-9a-f]+$/.test(value) ? value : undefined;
  const match = /^endo:\/\/([0-9a-f]+)\/([0-9a-f]*)[@?/]?/.exec(value);
  if (match === null) return undefined;
  const [, node, number] = match;
  if (number) return `${number}:${node}`;
  // An older spelling, endo://<node>/?id=<number>.
  const id = /[?&]id=([0-9a-f]+)/.exec(value)?.[1];
  return id === undefined ? undefined : `${id}:${node}`;
};
harden(idFromLocator);

type Powers = Record<string, (...args: never[]) => unknown>;

export const makeDaemonAdapter = async (powers: unknown, log: Log): Promise<DaemonAdapter> => {
  const { generation } = await detectGeneration(powers);
  const newest = generation === 'newest';
  const { host, self, agent, mail } = SPECIAL_NAMES[generation];
  const names: GuestSpecialNames = harden({ host, self, agent, mail });
  const far = () =>
    E(powers as Powers) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  // A guest whose powers fail here (its mailbox did not load) cannot work at all: let that be thrown.
  const selfId = idFromLocator(await far().identify!(names.self));
  void log;
  const idOf = newest
    ? idFromLocator
    : (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  /** Both daemons follow with one kind of remote stream each: an iterator at f0a46042a, an exo-stream reader in the newest. */
  const streamOf = (answer: unknown): MailStream => {
    if (!newest) {
      // f0a46042a: a remote async iterator.
      const iterator = answer as Powers;
      return harden({
        next: () => E(iterator).next!() as Promise<IteratorResult<unknown>>,
        return: (value?: unknown) => E(iterator).return!(value as never),
      });
    }
    return readStream(answer);
  };
  return harden({
    generation,
    label: GENERATION_LABELS[generation],
    names,
    canEdit: newest,
    selfId,
    idOf,
    isOwn: (message: { from?: unknown }) => selfId !== undefined && idOf(message.from) === selfId,
    follow: async (): Promise<MailStream> => {
      const answer = await far().followMessages!();
      return streamOf(answer);
    },
    followNameChanges: async (directory: unknown): Promise<MailStream> =>
      streamOf(
        await (
          E(directory as Powers) as unknown as { followNameChanges(): Promise<unknown> }
        ).followNameChanges(),
      ),
    storeIdentifier: async (path: string[], id: string) => {
      await (newest ? far().storeIdentifier!(path, id) : far().write!(path, id));
    },
  });
};
harden(makeDaemonAdapter);
