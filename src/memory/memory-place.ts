/**
 * Where the memory lies (since memory version 12), and its move there. The
 * memory is written after every piece of work that changed it. Under a name
 * at the top of the guest's directory, each write was told to the agent's
 * own follower of its names (it follows them for its senders' names,
 * src/mail/sender-names.ts) as two messages, the old value's name removed
 * and the new one's added: the daemon has no write that replaces in one
 * change (endo's pet-store.js, both daemons). A write into a directory goes
 * through that directory's own pet store and reaches only its followers
 * (directory.js), and nobody follows `agent-state/`: a ping's write is heard
 * by no one (docs/benchmark.md, figure 15).
 *
 * The directory is made once: by setup for a new guest, as tools/ is, else
 * by the agent at its first start; one the daemon collected before naming it
 * (f0a46042a, ../agent-tools/tools-directory.ts) is made again. A memory of
 * version 11 or older, at `agent-memory`, is moved in: one move of its name,
 * the value not written again. A move that stopped between its write and its
 * removal (both names on one value) is finished; a memory at the old name
 * beside another in the new place (an older version run after the upgrade)
 * is kept aside in the directory, never dropped.
 */
import { E } from '@endo/far';
import { farOf } from '../daemon/far-ref.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { MEMORY_PATH, OLD_MEMORY_NAME, STATE_DIRECTORY } from '../daemon/own-names.js';
import { ensureDirectory } from '../agent-tools/tools-directory.js';

/** The memory's path as the log and help() show it. */
export const MEMORY_SHOWN = MEMORY_PATH.join('/');
harden(MEMORY_SHOWN);

const memoryPath = (): string[] => [...MEMORY_PATH];

/** The name of the memory in its directory (`memory`). */
const MEMORY_LEAF = MEMORY_PATH[MEMORY_PATH.length - 1]!;

/**
 * A free path beside the memory for one this version does not use: by its version when it has
 * one (`agent-state/memory-v13`), never one in use.
 */
export const asidePath = async (powers: PowersRef, version: unknown): Promise<string[]> => {
  const base =
    Number.isSafeInteger(version) && (version as number) > 0
      ? `${MEMORY_LEAF}-v${version as number}`
      : `${MEMORY_LEAF}-unread`;
  let name = base;
  // One name after another, until one is free (rarely more than one look).
  // eslint-disable-next-line no-await-in-loop
  for (let count = 2; await E(powers).has(STATE_DIRECTORY, name); count += 1)
    name = `${base}-${count}`;
  return [STATE_DIRECTORY, name];
};
harden(asidePath);

/** The version a stored memory says it is, if it reads as JSON with one. */
const versionOf = (stored: unknown): unknown => {
  try {
    return (JSON.parse(String(stored)) as { version?: unknown } | null)?.version;
  } catch {
    return undefined;
  }
};

/** Moves the memory of version 11 or older into the state directory (or keeps it aside there). */
const moveOldMemory = async (powers: PowersRef, log: Log): Promise<void> => {
  if (!(await E(powers).has(OLD_MEMORY_NAME))) return;
  if (!(await E(powers).has(...MEMORY_PATH))) {
    await E(powers).move([OLD_MEMORY_NAME], memoryPath());
    log(
      `the memory moved from ${OLD_MEMORY_NAME} to ${MEMORY_SHOWN}, where no follower hears it written`,
    );
    return;
  }
  const [oldId, newId] = await Promise.all([
    E(powers).identify(OLD_MEMORY_NAME),
    E(powers).identify(...MEMORY_PATH),
  ]);
  if (oldId === newId) {
    // A move across directories writes the new name first: it stopped before its removal.
    await E(powers).remove(OLD_MEMORY_NAME);
    return;
  }
  const aside = await asidePath(powers, versionOf(await E(powers).lookup(OLD_MEMORY_NAME)));
  await E(powers).move([OLD_MEMORY_NAME], aside);
  log(
    `${OLD_MEMORY_NAME} was found beside ${MEMORY_SHOWN} (an older version run since?); kept aside as "${aside.join('/')}", untouched`,
  );
};

/** Makes the state directory when it is missing (or was collected), and moves an older memory in. */
export const placeMemory = async (powers: PowersRef, log: Log): Promise<void> => {
  await ensureDirectory(powers, STATE_DIRECTORY, log);
  await moveOldMemory(powers, log);
};
harden(placeMemory);

/** Whether a memory is stored in its place. */
export const hasMemory = (powers: PowersRef): Promise<boolean> =>
  Promise.resolve(E(powers).has(...MEMORY_PATH));
harden(hasMemory);

/** The stored memory, as the daemon gives it. */
export const readMemory = (powers: PowersRef): Promise<unknown> =>
  Promise.resolve(E(powers).lookup(memoryPath()));
harden(readMemory);

/** Writes the memory (one JSON string) in its place. */
export const writeMemory = (powers: PowersRef, text: string): Promise<void> =>
  Promise.resolve(farOf(powers).storeValue(text, memoryPath()));
harden(writeMemory);
