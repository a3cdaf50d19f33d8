/**
 * The agent's memory in the guest's own store (`storeValue` under one path,
 * `agent-state/memory` since version 12: ./memory-place.ts): the
 * conversation (digest and recent turns) and the keys of the messages
 * already handled, so that a caplet rebuilt after a daemon restart
 * continues the conversation and answers nothing twice; since version 2
 * also the model usage (calls and tokens, per model, and the last hour's
 * calls the quotas count) and the pending wake-ups; since version 3 the
 * last hour's calls by the minute; since version 4 what the agent asked of
 * others and still waits for (requests, approvals, proposals), and whom the
 * quota has told to wait; since version 5 where each ask's life stood
 * (asks/ask-life.ts); since version 6 the senders it served (turns in a
 * row, turns this hour, who is held); since version 7 each correspondent's
 * thread (../history/threads.ts); since version 9 the holds' told marks in
 * one list (./stored-holds.ts); since version 11 the searchable history's
 * open chunk (../recall/history-chunks.ts), written with the memory rather
 * than beside it: one write a piece of work; since version 12 in the
 * directory `agent-state/`, where its write is told to no follower. It is
 * stored as one JSON string: written after every message, a string costs the connection
 * one copy, where a record of many small parts is hardened and marshalled
 * part by part.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import { emptyConversation, type Conversation } from '../history/conversation.js';
import { readThreads, splitBySender, type SenderThread } from '../history/threads.js';
import { BEFORE_LABELS, keepOnlyHostsWordsOfOldStore } from '../history/word-labels.js';
import type { Log } from '../log/log.js';
import { isWakeUp, type WakeUp } from '../schedule/wake-up-record.js';
import {
  emptyUsage,
  isUsageLedger,
  migrateUsage,
  type UsageLedger,
} from '../usage/usage-ledger.js';
import { emptyAskStore, readAskStore, type AskStore } from '../asks/pending-asks.js';
import { isStoredNotice, type StoredNotice } from '../mail/origin.js';
import { readSenderRecords, type SenderRecord } from '../peers/sender-ledger.js';
import type { ToldHold } from '../lifecycle/holds.js';
import { readStoredHolds } from './stored-holds.js';
import { describeError } from '../../providers/describe-error.js';
import { emptyHelperStore, readHelperStore, type HelperStore } from '../helpers/helper-store.js';
import {
  asidePath,
  hasMemory,
  MEMORY_SHOWN,
  placeMemory,
  readMemory,
  writeMemory,
} from './memory-place.js';
import { readOpenChunk, type OpenChunk } from '../recall/history-chunks.js';
import { redactedJson } from '../log/redacted-json.js';
import type { Redact } from '../../providers/redact-secrets.js';

/**
 * 1: conversation and handled ids. 2: and usage and wake-ups (a version 1
 * memory loads with none). 3: the usage's last-hour calls by the minute,
 * [when, tokens, calls] (a version 2 entry [when, tokens] is one call).
 * 4: and `asks` (pending requests, approvals and proposals, followed again
 * after a restart), `toldToWait` (held messages whose sender was told) and
 * `notices` (outcomes not yet shown to the model);
 * a version 1–3 memory loads with none.
 * 5: each pending ask keeps its `state` (made, sent, or settled while its
 * approved call runs); a version 4 ask was sent.
 * 6: and `senders` (../peers/sender-ledger.ts); a version 1–5 memory loads with none.
 * 7: and `threads`, each sender's own thread besides the HOST's (`conversation`,
 * which holds every turn); a version 1–6 memory, whose conversation all
 * senders shared, loads with its turns and digest lines copied into the
 * thread of the sender each names (../history/threads.ts): nothing is lost.
 * 8: and `helpers`, the helper agents running (../helpers/helper-store.ts),
 * told as lost after a restart; a version 1–7 memory loads with none.
 * 9: `holds`, the told-once marks of every hold (../lifecycle/holds.ts) in
 * one list, instead of `toldToWait` and the sender records' `held` and
 * `told`; a version 4–8 memory loads with those moved into it.
 * 10: words keep their label (../history/word-labels.ts): a turn's `label`,
 * a digest line's `read`, a wake-up's `read`; a version 1–9 memory, whose
 * words carry none, loads conservatively: the HOST's thread keeps the HOST's
 * words and what was done (the rest stays in the searchable history), and
 * each wake-up is labelled as set before labels.
 * 11: and `openChunk`, the searchable history's chunk being filled (`{ seq,
 * exchanges }`), which version 10 wrote apart as `agent-history/open`; a
 * version 1–10 memory loads without one, and the history's load
 * (../recall/history-archive.ts) closes version 10's `open` as it stands.
 * 12: the same record, in its own directory: `agent-state/memory`, not
 * `agent-memory` at the top of the guest's directory; a version 1–11
 * memory is moved there at load, as it stands, then read as its version
 * says (./memory-place.ts). Version 12 also keeps, when one was made, `wakeUpsMade`, the count of
 * wake-up ids made (none is made twice); a memory without it goes on from its highest pending id.
 * A memory this version cannot read (a newer version's, or damaged) is
 * kept aside beside it under another name (`memory-v13`, …), never overwritten.
 */
export const VERSION = 12;
harden(VERSION);

export interface Memory {
  /** The HOST's thread: every turn (docs/behaviour.md 9.1). */
  conversation: Conversation;
  /** Each other sender's own thread, the least recently served first (version 7). */
  threads: SenderThread[];
  /** Keys of handled messages, oldest first. */
  handled: string[];
  usage: UsageLedger;
  /** Pending wake-ups of the `schedule` tool, soonest first. */
  wakeUps: WakeUp[];
  /**
   * How many wake-up ids have been made (`w1`, `w2`, …), so none is made twice (optional; absent
   * in an older memory, which goes on from its highest pending id: ../schedule/wake-ups.ts).
   */
  wakeUpsMade?: number;
  /** What the agent asked of others and still waits for. */
  asks: AskStore;
  /** The holds whose party has been told of them, one mark each (version 9; ./stored-holds.ts). */
  holds: ToldHold[];
  /** Outcomes that arrived and were not yet shown to the model (version 4; none when absent). */
  notices: StoredNotice[];
  /** The senders served, with their turns and holds (version 6; none when absent). */
  senders: SenderRecord[];
  /** The helper agents running (version 8; none when absent). */
  helpers: HelperStore;
  /**
   * The searchable history's open chunk (version 11), owned by ../recall/history-archive.ts and
   * written here; absent until the history is loaded, and in a memory of version 10 or older.
   */
  openChunk?: OpenChunk;
  /**
   * The greeting last sent to the host (optional; absent in an older memory): a revived agent greets again only when its greeting, which
   * says the model and the settings' problems, would differ.
   */
  greeting?: string;
  /** Set (never stored) when the memory was from before labels (version 9 or older): the HOST's thread as it was, word for word, for the searchable history. */
  wordsBeforeLabels?: Conversation;
  /** Set (never stored) when the memory found could not be read: the name it was kept aside under. */
  keptAside?: string;
  /**
   * Set (never stored) when a memory exists but could neither be read nor
   * kept aside: this run saves nothing, so that it is not overwritten.
   */
  unsaved?: string;
}

export const freshMemory = (now: number = Date.now()): Memory => ({
  conversation: emptyConversation(),
  threads: [],
  handled: [],
  usage: emptyUsage(now),
  wakeUps: [],
  asks: emptyAskStore(),
  holds: [],
  notices: [],
  senders: [],
  helpers: emptyHelperStore(),
});
harden(freshMemory);

type StoredMemory = {
  version: number;
  conversation: Conversation;
  threads?: unknown;
  handled: string[];
  usage?: unknown;
  wakeUps?: unknown;
  wakeUpsMade?: unknown;
  asks?: unknown;
  toldToWait?: unknown;
  holds?: unknown;
  notices?: unknown;
  senders?: unknown;
  helpers?: unknown;
  greeting?: unknown;
  openChunk?: unknown;
};

const isMemoryShape = (value: unknown): value is StoredMemory => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const conversation = record.conversation as Record<string, unknown> | undefined;
  return (
    typeof record.version === 'number' &&
    Number.isInteger(record.version) &&
    record.version >= 1 &&
    record.version <= VERSION &&
    Array.isArray(record.handled) &&
    conversation !== undefined &&
    Array.isArray(conversation.digest) &&
    Array.isArray(conversation.turns) &&
    typeof conversation.omitted === 'number'
  );
};

const isCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

const versionOf = (parsed: unknown): unknown =>
  parsed !== null && typeof parsed === 'object'
    ? (parsed as Record<string, unknown>).version
    : undefined;

const describeVersion = (parsed: unknown): string => {
  const version = versionOf(parsed);
  return typeof version === 'number' && version > VERSION
    ? ` (version ${version}, newer than ${VERSION})`
    : '';
};

/** Keeps a memory this version cannot read beside it, so that no save overwrites it. */
const keepAside = async (powers: PowersRef, stored: unknown, parsed: unknown): Promise<string> => {
  const path = await asidePath(powers, versionOf(parsed));
  await E(powers).storeValue(stored, path);
  return path.join('/');
};

export const loadMemory = async (
  powers: PowersRef,
  log: Log,
  now: number = Date.now(),
  /** How the daemon names the HOST: its turns are in no other sender's thread. */
  hostName = 'HOST',
): Promise<Memory> => {
  const freshNow = () => freshMemory(now);
  // Once a memory is known to exist, a failure must not let this run overwrite it.
  let found: string | undefined;
  try {
    // Until the memory is known to be in its place (and an older one moved in), nothing is saved.
    found = 'could not be put in its place';
    await placeMemory(powers, log);
    found = undefined;
    if (!(await hasMemory(powers))) return freshNow();
    found = 'could not be read';
    const stored: unknown = await readMemory(powers);
    let parsed: unknown;
    try {
      parsed = typeof stored === 'string' ? JSON.parse(stored) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!isMemoryShape(parsed)) {
      found = 'could not be kept aside';
      const keptAside = await keepAside(powers, stored, parsed);
      log(
        `${MEMORY_SHOWN} is not a memory this version can read${describeVersion(parsed)}; kept aside as "${keptAside}", starting afresh`,
      );
      return { ...freshNow(), keptAside };
    }
    // Parts a version 1 memory lacks, or that do not read, start empty; the conversation is kept.
    const usage = isUsageLedger(parsed.usage) ? migrateUsage(parsed.usage) : emptyUsage(now);
    const wakeUps = Array.isArray(parsed.wakeUps) ? parsed.wakeUps.filter(isWakeUp) : [];
    if (
      parsed.version !== 1 &&
      (!isUsageLedger(parsed.usage) ||
        wakeUps.length !== (parsed.wakeUps as unknown[] | undefined)?.length)
    ) {
      log(`${MEMORY_SHOWN}: part of the usage or wake-ups did not read and was left out`);
    }
    // Version 4's parts; an older memory has none.
    const asks = readAskStore(parsed.asks);
    // Version 9's one list of told marks; an older memory's moved into it.
    const holds = readStoredHolds(parsed, readSenderRecords(parsed.senders));
    if (holds.lost > 0)
      log(`${MEMORY_SHOWN}: ${holds.lost} told mark(s) did not read and were left out`);
    if (asks.lost > 0)
      log(`${MEMORY_SHOWN}: ${asks.lost} pending ask(s) did not read and were left out`);
    const notices = Array.isArray(parsed.notices) ? parsed.notices.filter(isStoredNotice) : [];
    const helpers = readHelperStore(parsed.helpers);
    if (helpers.lost > 0)
      log(`${MEMORY_SHOWN}: ${helpers.lost} running helper(s) did not read and were left out`);
    // Split by sender (version 6 or older) from the words as they were, before they are labelled.
    const threads = readStoredThreads(parsed, hostName, log);
    const beforeLabels = parsed.version < 10;
    const openChunk = readStoredOpenChunk(parsed, log);
    return {
      conversation: beforeLabels
        ? keepOnlyHostsWordsOfOldStore(parsed.conversation, hostName)
        : parsed.conversation,
      threads,
      handled: parsed.handled,
      usage,
      wakeUps: beforeLabels
        ? wakeUps.map(entry =>
            entry.read === undefined ? { ...entry, read: BEFORE_LABELS } : entry,
          )
        : wakeUps,
      asks: asks.store,
      holds: holds.holds,
      notices,
      senders: holds.senders,
      helpers: helpers.store,
      ...(isCount(parsed.wakeUpsMade) ? { wakeUpsMade: parsed.wakeUpsMade } : {}),
      ...(typeof parsed.greeting === 'string' ? { greeting: parsed.greeting } : {}),
      ...(openChunk === undefined ? {} : { openChunk }),
      ...(beforeLabels ? { wordsBeforeLabels: parsed.conversation } : {}),
    };
  } catch (error) {
    const why = describeError(error);
    if (found === undefined) {
      log(`could not read ${MEMORY_SHOWN} (${why}); starting afresh`);
      return freshNow();
    }
    log(`${MEMORY_SHOWN} ${found} (${why}); starting afresh, and saving nothing this run`);
    return { ...freshNow(), unsaved: `${MEMORY_SHOWN} ${found} (${why})` };
  }
};
harden(loadMemory);

/** Version 7's threads; an older memory's shared conversation split by sender (nothing lost). */
const readStoredThreads = (parsed: StoredMemory, hostName: string, log: Log): SenderThread[] => {
  if (parsed.version < 7) {
    const threads = splitBySender(parsed.conversation, hostName);
    if (threads.length > 0)
      log(
        `${MEMORY_SHOWN}: the conversation of version ${parsed.version} split into ${threads.length} sender thread(s) besides ${hostName}'s`,
      );
    return threads;
  }
  const { threads, lost } = readThreads(parsed.threads);
  if (lost > 0) log(`${MEMORY_SHOWN}: ${lost} thread(s) did not read and were left out`);
  return threads;
};

/**
 * Version 11's open chunk; none in an older memory or one saved before its history was loaded (the
 * history's load makes one, taking in version 10's). One that does not read starts empty, numbered
 * 1: the history's load moves it past the closed chunks.
 */
const readStoredOpenChunk = (parsed: StoredMemory, log: Log): OpenChunk | undefined => {
  if (parsed.version < 11 || parsed.openChunk === undefined) return undefined;
  const read = readOpenChunk(parsed.openChunk);
  if (read === undefined) {
    log(`${MEMORY_SHOWN}: the history's open chunk did not read and was left out`);
    return { seq: 1, exchanges: [] };
  }
  if (read.lost > 0)
    log(
      `${MEMORY_SHOWN}: ${read.lost} exchange(s) of the history's open chunk did not read and were left out`,
    );
  return read.chunk;
};

/** What help() says about a memory this run could not use (nothing when all is well). */
export const describeMemoryTrouble = (memory: Memory): string[] => [
  ...(memory.keptAside === undefined
    ? []
    : [
        `the memory I found ("${MEMORY_SHOWN}") is not one this version can read (a newer version's?): it is kept aside as "${memory.keptAside}", untouched, and I started afresh. Run the newer version again to use it.`,
      ]),
  ...(memory.unsaved === undefined
    ? []
    : [
        `${memory.unsaved}: I started afresh and save nothing this run, so that it is not overwritten.`,
      ]),
];
harden(describeMemoryTrouble);

/**
 * What was last written for each memory: a piece of work that changed nothing (a post or a
 * message skipped, a listing of the schedules) writes nothing, as each write is a round trip to
 * the daemon and, on the newest, a database write and a name change its followers are told of
 * (issue 46). Only this module writes the memory's name.
 */
const lastWritten = new WeakMap<Memory, string>();

/**
 * The parts of the memory a crash before its next write must not lose, as one text: the keys of
 * answered messages still in the inbox (behaviour 2.5: not answered again), what the agent waits
 * for (3.10), the told-once marks (2.9), the wake-ups, the outcomes not yet shown and the helpers.
 * The rest (the conversation and threads, the history's open chunk, the usage and the senders'
 * counts) changes with every turn and may be written a moment later (../serving/serving-loop.ts).
 */
const mustKeep = (memory: Memory): string =>
  JSON.stringify([
    memory.handled,
    memory.asks,
    memory.holds,
    memory.wakeUps,
    memory.wakeUpsMade,
    memory.notices,
    memory.helpers,
  ]);
const lastKept = new WeakMap<Memory, string>();

/**
 * Whether the memory's next write may wait: nothing a crash must not lose changed since its last
 * write in this run (before the first there is nothing to compare with, so it may not).
 */
export const writeMayWait = (memory: Memory): boolean => lastKept.get(memory) === mustKeep(memory);
harden(writeMayWait);

export const saveMemory = async (
  powers: PowersRef,
  memory: Memory,
  log: Log,
  /** Hides secret values (the auth token) the conversation may hold, e.g. echoed by the model: the store never keeps them. */
  redact: Redact,
): Promise<void> => {
  // A memory this run could not read or keep aside is still there: it is not overwritten.
  if (memory.unsaved !== undefined) return;
  try {
    const snapshot = redactedJson(
      {
        version: VERSION,
        conversation: memory.conversation,
        threads: memory.threads,
        handled: memory.handled,
        usage: memory.usage,
        wakeUps: memory.wakeUps,
        wakeUpsMade: memory.wakeUpsMade,
        asks: memory.asks,
        holds: memory.holds,
        notices: memory.notices,
        senders: memory.senders,
        helpers: memory.helpers,
        greeting: memory.greeting,
        openChunk: memory.openChunk,
      },
      redact,
    );
    const kept = mustKeep(memory);
    if (lastWritten.get(memory) !== snapshot) await writeMemory(powers, snapshot);
    lastWritten.set(memory, snapshot);
    lastKept.set(memory, kept);
  } catch (error) {
    log(`could not save ${MEMORY_SHOWN}: ${describeError(error)}`);
  }
};
harden(saveMemory);
