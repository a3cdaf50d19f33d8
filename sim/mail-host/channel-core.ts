/**
 * One incarnation of a channel (a daemon run): the messages stream to its
 * followers, the members' live entries, the invitations by inviter and
 * name. Every object of an incarnation fails once the daemon has restarted
 * (its handles are not kept: a member joins again).
 */
import { makeStreamReader } from './stream-reader.js';
import { makeTopic, type Subscription } from './topic.js';
import { quote } from './pet-name.js';
import type { ChannelMessage, ChannelStore, MemberEntry } from './channel-store.js';
import type { InvitationRecord } from './channel-members.js';

const RESTARTED = 'Disconnected: the channel object is from before the daemon restarted';

export const makeChannelCore = (options: {
  store: ChannelStore;
  now: () => Date;
  randomHex: () => string;
  /** Whether this incarnation is still the daemon's current one. */
  isCurrent: () => boolean;
}) => {
  const { store, now, randomHex, isCurrent } = options;
  const topic = makeTopic<ChannelMessage>();
  const entries = new Map<string, MemberEntry>();
  const invitations = new Map<string, InvitationRecord>();

  /** A method of this incarnation: fails (throws, or rejects for an async one) after a restart. */
  const current =
    <A extends unknown[], R>(method: (...args: A) => R) =>
    (...args: A): R => {
      if (!isCurrent()) throw Error(RESTARTED);
      return method(...args);
    };

  const post = (
    memberId: string,
    strings: readonly string[],
    names: readonly string[],
    ids: readonly string[],
    replyTo: string | undefined,
    replyType: string | undefined,
  ) => {
    const message: ChannelMessage = harden({
      type: 'package',
      messageId: randomHex(),
      number: store.nextMessageNumber(),
      date: now().toISOString(),
      memberId,
      strings: [...strings],
      names: [...names],
      ids: [...ids],
      ...(replyTo === undefined ? {} : { replyTo }),
      ...(replyType === undefined ? {} : { replyType }),
    });
    store.append(message);
    topic.publish(message);
  };

  /**
   * `post` as the daemon's admin and member handles have it (strings, edge names, pet names,
   * replyTo, ids, replyType), posting as `memberId` once `check` (a member's access and heat)
   * lets it.
   */
  const postMethod = (memberId: string, check: () => void = () => {}) =>
    current(
      async (
        strings: string[],
        names: string[],
        _petNamesOrPaths: unknown,
        replyTo?: string,
        ids?: string[],
        replyType?: string,
      ) => {
        check();
        post(memberId, strings, names, ids ?? [], replyTo, replyType);
      },
    );

  /** Every message so far, then each new one; a member's access is checked before and after each. */
  const follow = (checkAccess: () => void) => {
    checkAccess();
    const inner = topic.subscribe(store.messages());
    const gated: Subscription<ChannelMessage> = {
      next: async () => {
        checkAccess();
        const step = await inner.next();
        checkAccess();
        return step;
      },
      end: () => inner.end(),
      fail: error => inner.fail(error),
    };
    return makeStreamReader(gated);
  };

  const describeMember = (id: string) => {
    const entry = entries.get(id);
    if (entry === undefined) return undefined;
    const pedigreeMemberIds: string[] = [];
    for (let at = entries.get(entry.inviterMemberId); at !== undefined;) {
      pedigreeMemberIds.unshift(at.memberId);
      at = at.inviterMemberId === '' ? undefined : entries.get(at.inviterMemberId);
    }
    return harden({
      proposedName: entry.proposedName,
      invitedAs: entry.invitedAs,
      memberId: entry.memberId,
      pedigree: [...entry.pedigree],
      pedigreeMemberIds,
    });
  };

  return {
    store,
    current,
    nowMs: () => now().getTime(),
    postMethod,
    follow,
    list: () => harden([...store.messages()]),
    entries,
    invitations,
    /** Records an invitation where `join` finds it (by its inviter and the name it was made under). */
    register: (entry: MemberEntry, invitation: object, attenuator: object): InvitationRecord => {
      entries.set(entry.memberId, entry);
      // Not hardened: the entry stays live (validity, heat, name).
      const record = { invitation, attenuator, entry };
      invitations.set(`${entry.inviterMemberId}:${entry.invitedAs}`, record);
      return record;
    },
    describeMember,
    describeInvitations: (own: Map<string, InvitationRecord>) =>
      harden(
        [...own.values()].map(({ entry }) => ({
          proposedName: entry.proposedName,
          invitedAs: entry.invitedAs,
          memberId: entry.memberId,
          pedigree: [...entry.pedigree],
          active: entry.valid,
        })),
      ),
    attenuatorIn: (own: Map<string, InvitationRecord>, name: string) => {
      const record = own.get(name);
      if (record === undefined)
        throw Error(`No invitation named ${quote(name)} found from this member`);
      return record.attenuator;
    },
    /** Ends every follower's stream (the daemon went away under them). */
    disconnect: () => topic.failAll(Error(RESTARTED)),
  };
};
harden(makeChannelCore);
export type ChannelCore = ReturnType<typeof makeChannelCore>;
