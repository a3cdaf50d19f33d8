/**
 * A channel of the newest daemon (packages/daemon/src/channel.js), one
 * incarnation: the admin object its maker holds (member id '0', never gated
 * nor rate-limited), with `join`, which claims an invitation by name (the
 * admin's of that name, else any made under that name, else the first
 * unclaimed), and the members written before a restart made again, parents
 * before their invitees.
 */
import { makeGuardedExo } from './guarded-exo.js';
import { ChannelInterface } from './channel-interfaces.js';
import { unlimited } from './channel-heat.js';
import { makeChannelCore } from './channel-core.js';
import { makeMemberObjects, type InvitationRecord, type MemberChain } from './channel-members.js';
import { ADMIN_MEMBER_ID, type ChannelStore, type MemberEntry } from './channel-store.js';

export const makeChannelIncarnation = (options: {
  store: ChannelStore;
  now: () => Date;
  randomHex: () => string;
  isCurrent: () => boolean;
}) => {
  const core = makeChannelCore(options);
  const { store } = core;
  const members = makeMemberObjects(core);
  const adminEntry: MemberEntry = {
    proposedName: store.proposedName,
    invitedAs: store.proposedName,
    memberId: ADMIN_MEMBER_ID,
    inviterMemberId: '',
    pedigree: [],
    valid: true,
    joined: true,
    heatConfig: null,
    temporaryBanUntil: 0,
  };
  core.entries.set(ADMIN_MEMBER_ID, adminEntry);
  const adminChain: MemberChain = { checkAccess: () => {}, checkRate: unlimited };
  const adminInvitations = new Map<string, InvitationRecord>();

  // Members written before a restart: their invitations are made again (to join again by).
  const chains = new Map<string, { chain: MemberChain; own: Map<string, InvitationRecord> }>([
    [ADMIN_MEMBER_ID, { chain: adminChain, own: adminInvitations }],
  ]);
  for (const entry of store.storedEntries()) {
    const parent = chains.get(entry.inviterMemberId);
    if (parent === undefined) continue;
    const record = core.register(
      entry,
      members.makeInvitation(entry, parent.chain),
      members.makeAttenuator(entry),
    );
    parent.own.set(entry.invitedAs, record);
    chains.set(entry.memberId, { chain: members.chainOf(entry, parent.chain), own: new Map() });
  }

  const join = async (name: string): Promise<unknown> => {
    const records = [...core.invitations.values()];
    const record =
      core.invitations.get(`${ADMIN_MEMBER_ID}:${name}`) ??
      records.find(({ entry }) => entry.invitedAs === name) ??
      records.find(({ entry }) => !entry.joined);
    if (record === undefined)
      throw Error('No unclaimed invitation exists — ask the channel admin to create one');
    return (record.invitation as { join(name: string): Promise<unknown> }).join(name);
  };

  const admin = makeGuardedExo<object>('EndoChannel', ChannelInterface, {
    help: core.current(() => 'EndoChannel: a multi-party chat room with invitations.'),
    post: core.postMethod(ADMIN_MEMBER_ID),
    followMessages: core.current(async () => core.follow(() => {})),
    listMessages: core.current(async () => core.list()),
    createInvitation: core.current(async (name: string) =>
      members.invite(adminEntry, adminChain, adminInvitations, name),
    ),
    join: core.current(join),
    getMembers: core.current(async () => core.describeInvitations(adminInvitations)),
    getProposedName: core.current(() => store.proposedName),
    getMemberId: core.current(() => ADMIN_MEMBER_ID),
    getMember: core.current(async (id: string) => core.describeMember(id)),
    getAttenuator: core.current(async (name: string) => core.attenuatorIn(adminInvitations, name)),
    getHeatConfig: core.current(async () => null),
  });
  return { admin, disconnect: core.disconnect };
};
harden(makeChannelIncarnation);
