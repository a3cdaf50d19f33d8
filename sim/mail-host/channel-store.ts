/**
 * What a channel keeps across a daemon restart, as the newest daemon's
 * channel.js does in its two stores: every message posted, and each member's
 * entry as last written (a member's live changes that the daemon does not
 * write, such as a new proposed name, are lost at a restart, as there).
 * `saved` gives it as JSON keeps it (the simulator's state folder, between
 * runs), `makeChannelStore`'s second argument takes that back.
 */
import type { FormulaId } from './types.js';

export interface HeatConfig {
  readonly burstLimit: number;
  readonly sustainedRate: number;
  readonly lockoutDurationMs: number;
  readonly postLockoutPct: number;
}

export interface MemberEntry {
  proposedName: string;
  readonly invitedAs: string;
  readonly memberId: string;
  /** '' for the admin. */
  readonly inviterMemberId: string;
  readonly pedigree: readonly string[];
  valid: boolean;
  joined: boolean;
  heatConfig: HeatConfig | null;
  temporaryBanUntil: number;
}

export interface ChannelMessage {
  readonly type: 'package';
  readonly messageId: string;
  readonly number: bigint;
  readonly date: string;
  readonly memberId: string;
  readonly strings: readonly string[];
  readonly names: readonly string[];
  readonly ids: readonly FormulaId[];
  /** The number of the message this one answers (or, with replyType 'edit', revises), as a string. */
  readonly replyTo?: string;
  readonly replyType?: string;
}

export const ADMIN_MEMBER_ID = '0';
harden(ADMIN_MEMBER_ID);

/** A channel's store as JSON keeps it: numbers as decimal strings. */
export interface SavedChannelStore {
  readonly proposedName: string;
  readonly nextNumber: string;
  readonly nextMemberId: number;
  readonly messages: readonly (Omit<ChannelMessage, 'number'> & { readonly number: string })[];
  readonly entries: readonly MemberEntry[];
}

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every(each => typeof each === 'string');

const DECIMAL = /^\d+$/;

const isSavedMessage = (value: unknown): value is SavedChannelStore['messages'][number] => {
  const message = value as Record<string, unknown> | null;
  return (
    message?.type === 'package' &&
    typeof message.messageId === 'string' &&
    typeof message.number === 'string' &&
    DECIMAL.test(message.number) &&
    typeof message.date === 'string' &&
    typeof message.memberId === 'string' &&
    isStrings(message.strings) &&
    isStrings(message.names) &&
    isStrings(message.ids) &&
    ['undefined', 'string'].includes(typeof message.replyTo) &&
    ['undefined', 'string'].includes(typeof message.replyType)
  );
};

const isHeatConfig = (value: unknown): value is HeatConfig => {
  const config = value as Record<string, unknown> | null;
  return ['burstLimit', 'sustainedRate', 'lockoutDurationMs', 'postLockoutPct'].every(
    field => typeof config?.[field] === 'number',
  );
};

const isSavedEntry = (value: unknown): value is MemberEntry => {
  const entry = value as Record<string, unknown> | null;
  return (
    typeof entry?.proposedName === 'string' &&
    typeof entry.invitedAs === 'string' &&
    typeof entry.memberId === 'string' &&
    typeof entry.inviterMemberId === 'string' &&
    isStrings(entry.pedigree) &&
    typeof entry.valid === 'boolean' &&
    typeof entry.joined === 'boolean' &&
    (entry.heatConfig === null || isHeatConfig(entry.heatConfig)) &&
    typeof entry.temporaryBanUntil === 'number'
  );
};

/** A saved store that reads whole, else undefined (a part that does not read loses nothing else). */
export const readSavedChannelStore = (value: unknown): SavedChannelStore | undefined => {
  const saved = value as Record<string, unknown> | null;
  const whole =
    typeof saved?.proposedName === 'string' &&
    typeof saved.nextNumber === 'string' &&
    DECIMAL.test(saved.nextNumber) &&
    Number.isSafeInteger(saved.nextMemberId) &&
    Array.isArray(saved.messages) &&
    saved.messages.every(isSavedMessage) &&
    Array.isArray(saved.entries) &&
    saved.entries.every(isSavedEntry);
  return whole ? (saved as unknown as SavedChannelStore) : undefined;
};
harden(readSavedChannelStore);

export const makeChannelStore = (proposedName: string, saved?: SavedChannelStore) => {
  const messages: ChannelMessage[] = (saved?.messages ?? []).map(message =>
    harden({ ...message, number: BigInt(message.number) }),
  );
  const entries = new Map<string, MemberEntry>(
    (saved?.entries ?? []).map(entry => [
      entry.memberId,
      { ...entry, pedigree: [...entry.pedigree] },
    ]),
  );
  let nextNumber = saved === undefined ? 0n : BigInt(saved.nextNumber);
  let nextMemberId = saved?.nextMemberId ?? 1;
  return {
    proposedName,
    /** The messages so far, in order (the daemon sorts them by number when it reloads). */
    messages: (): readonly ChannelMessage[] => messages,
    nextMessageNumber: () => {
      const number = nextNumber;
      nextNumber += 1n;
      return number;
    },
    append: (message: ChannelMessage) => {
      messages.push(message);
    },
    allocateMemberId: () => {
      const id = String(nextMemberId);
      nextMemberId += 1;
      return id;
    },
    /** Writes an entry as it is now; a restart starts from these copies. */
    persist: (entry: MemberEntry) => {
      entries.set(entry.memberId, { ...entry, pedigree: [...entry.pedigree] });
    },
    /** The written entries, parents before their invitees, copied for a new incarnation. */
    storedEntries: (): MemberEntry[] =>
      [...entries.values()]
        .map(entry => ({ ...entry, pedigree: [...entry.pedigree] }))
        .sort((a, b) => a.pedigree.length - b.pedigree.length),
    /** All of it, as JSON keeps it. */
    saved: (): SavedChannelStore => ({
      proposedName,
      nextNumber: String(nextNumber),
      nextMemberId,
      messages: messages.map(message => ({ ...message, number: String(message.number) })),
      entries: [...entries.values()].map(entry => ({ ...entry, pedigree: [...entry.pedigree] })),
    }),
  };
};
harden(makeChannelStore);
export type ChannelStore = ReturnType<typeof makeChannelStore>;
