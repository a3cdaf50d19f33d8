/**
 * The objects of one incarnation of a channel that act for one member: its
 * handle (post, follow, invite, look members up), the invitation that makes
 * it, and the attenuator its inviter keeps. Each handle's access check is its
 * inviter's and then its own (disabled, banned), so disabling a member
 * disables everyone it invited; a member's every call, and every message its
 * stream hands out, passes the check first.
 */
import { makeGuardedExo } from './guarded-exo.js';
import {
  ChannelAttenuatorInterface,
  ChannelInvitationInterface,
  ChannelMemberInterface,
} from './channel-interfaces.js';
import { makeHeatCheck, type PostRateCheck } from './channel-heat.js';
import { quote } from './pet-name.js';
import type { HeatConfig, MemberEntry } from './channel-store.js';
import type { ChannelCore } from './channel-core.js';

export interface InvitationRecord {
  readonly invitation: object;
  readonly attenuator: object;
  readonly entry: MemberEntry;
}

/** What a member's calls pass: its inviters' checks and its own, then its posting rate. */
export interface MemberChain {
  readonly checkAccess: () => void;
  readonly checkRate: PostRateCheck;
}

const helpText = (what: string) => (methodName?: string) =>
  methodName === undefined || methodName === ''
    ? what
    : `No documentation available for method ${quote(methodName)}.`;

const checkValidity = (entry: MemberEntry, nowMs: number): void => {
  if (!entry.valid) throw Error(`Channel member ${quote(entry.invitedAs)} has been disabled`);
  if (entry.temporaryBanUntil > 0 && nowMs < entry.temporaryBanUntil)
    throw Error(`Channel member ${quote(entry.invitedAs)} is temporarily banned`);
};

export const makeMemberObjects = (core: ChannelCore) => {
  const makeAttenuator = (entry: MemberEntry) =>
    makeGuardedExo<object>('EndoChannelAttenuator', ChannelAttenuatorInterface, {
      setInvitationValidity: core.current(async (valid: boolean) => {
        entry.valid = valid;
        core.store.persist(entry);
      }),
      setHeatConfig: core.current(async (config: HeatConfig | null) => {
        entry.heatConfig = config === null ? null : harden({ ...config });
        core.store.persist(entry);
      }),
      getHeatConfig: core.current(async () => entry.heatConfig),
      temporaryBan: core.current(async (seconds: number) => {
        entry.temporaryBanUntil = core.nowMs() + seconds * 1000;
        core.store.persist(entry);
      }),
    });

  /** A member's chain: its inviter's checks, then its own. */
  const chainOf = (entry: MemberEntry, parent: MemberChain): MemberChain => ({
    checkAccess: () => {
      parent.checkAccess();
      checkValidity(entry, core.nowMs());
    },
    checkRate: makeHeatCheck(entry, parent.checkRate),
  });

  const makeInvitation = (entry: MemberEntry, parent: MemberChain): object => {
    let joined: object | undefined;
    return makeGuardedExo<object>('EndoChannelInvitation', ChannelInvitationInterface, {
      help: core.current(helpText('EndoChannelInvitation: join(proposedName) to become a member.')),
      join: core.current(async (proposedName: string) => {
        // Joining twice gives the same handle (within one incarnation of the daemon).
        if (joined !== undefined) return joined;
        entry.proposedName = proposedName;
        entry.joined = true;
        core.store.persist(entry);
        joined = makeMember(entry, chainOf(entry, parent));
        return joined;
      }),
    });
  };

  /** Invites `name` on behalf of `inviter`, recording it in `own` (the inviter's invitations). */
  const invite = (
    inviter: MemberEntry,
    chain: MemberChain,
    own: Map<string, InvitationRecord>,
    name: string,
  ) => {
    if (own.has(name))
      throw Error(`An invitation named ${quote(name)} already exists from this member`);
    const entry: MemberEntry = {
      proposedName: name,
      invitedAs: name,
      memberId: core.store.allocateMemberId(),
      inviterMemberId: inviter.memberId,
      pedigree: [...inviter.pedigree, inviter.proposedName],
      valid: true,
      joined: false,
      heatConfig: null,
      temporaryBanUntil: 0,
    };
    const record = core.register(entry, makeInvitation(entry, chain), makeAttenuator(entry));
    own.set(name, record);
    core.store.persist(entry);
    return harden([record.invitation, record.attenuator]);
  };

  const makeMember = (entry: MemberEntry, chain: MemberChain): object => {
    const own = new Map<string, InvitationRecord>();
    const checked =
      <A extends unknown[], R>(method: (...args: A) => R) =>
      (...args: A): R => {
        chain.checkAccess();
        return method(...args);
      };
    return makeGuardedExo<object>('EndoChannelMember', ChannelMemberInterface, {
      help: core.current(helpText('EndoChannelMember: a member handle of a multi-party channel.')),
      post: core.postMethod(entry.memberId, () => {
        chain.checkAccess();
        chain.checkRate(core.nowMs());
      }),
      setProposedName: core.current(
        checked(async (name: string) => {
          // Not written: the daemon's own handle does not persist a new name either.
          entry.proposedName = name;
        }),
      ),
      followMessages: core.current(async () => core.follow(chain.checkAccess)),
      listMessages: core.current(checked(async () => core.list())),
      createInvitation: core.current(
        checked(async (name: string) => invite(entry, chain, own, name)),
      ),
      getMembers: core.current(checked(async () => core.describeInvitations(own))),
      getProposedName: core.current(checked(() => entry.proposedName)),
      getMemberId: core.current(checked(() => entry.memberId)),
      getMember: core.current(checked(async (id: string) => core.describeMember(id))),
      getAttenuator: core.current(checked(async (name: string) => core.attenuatorIn(own, name))),
      getHeatConfig: core.current(checked(async () => entry.heatConfig)),
    });
  };

  return { makeAttenuator, makeInvitation, chainOf, invite };
};
harden(makeMemberObjects);
