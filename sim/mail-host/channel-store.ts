/**
 * What a channel keeps across a daemon restart, as the newest daemon's
 * channel.js does in its two stores: every message posted, and each member's
 * entry as last written (a member's live changes that the daemon does not
 * write, such as a new proposed name, are lost at a restart, as there).
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

export const makeChannelStore = (proposedName: string) => {
  const messages: ChannelMessage[] = [];
  const entries = new Map<string, MemberEntry>();
  let nextNumber = 0n;
  let nextMemberId = 1;
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
  };
};
harden(makeChannelStore);
export type ChannelStore = ReturnType<typeof makeChannelStore>;
