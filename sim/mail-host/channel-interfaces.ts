/**
 * Method guards of a channel's objects, as the newest daemon declares them
 * (packages/daemon/src/interfaces.js at 1ef30c259): the admin (`EndoChannel`),
 * a member's handle, an invitation and its attenuator. `replyTo` is a message
 * number written as a string; `ids` are formula ids the poster resolved itself.
 */
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';

const PostGuard = M.call(
  M.arrayOf(M.string()),
  M.arrayOf(M.string()),
  M.arrayOf(M.or(M.string(), M.arrayOf(M.string()))),
)
  .optional(M.or(M.string(), M.undefined()), M.arrayOf(M.string()), M.or(M.string(), M.undefined()))
  .returns(M.promise());

/** What the admin and a member's handle share. */
const sharedMethods = {
  help: M.call().optional(M.string()).returns(M.string()),
  post: PostGuard,
  followMessages: M.call().returns(M.promise()),
  listMessages: M.call().returns(M.promise()),
  createInvitation: M.call(M.string()).returns(M.promise()),
  getMembers: M.call().returns(M.promise()),
  getProposedName: M.call().returns(M.string()),
  getMemberId: M.call().returns(M.string()),
  getMember: M.call(M.string()).returns(M.promise()),
  getAttenuator: M.call(M.string()).returns(M.promise()),
  getHeatConfig: M.call().returns(M.promise()),
};

export const ChannelInterface: InterfaceGuard = M.interface('EndoChannel', {
  ...sharedMethods,
  join: M.call(M.string()).returns(M.promise()),
});

export const ChannelMemberInterface: InterfaceGuard = M.interface('EndoChannelMember', {
  ...sharedMethods,
  setProposedName: M.call(M.string()).returns(M.promise()),
});

export const ChannelInvitationInterface: InterfaceGuard = M.interface('EndoChannelInvitation', {
  help: M.call().optional(M.string()).returns(M.string()),
  join: M.call(M.string()).returns(M.promise()),
});

const HeatConfigShape = M.splitRecord({
  burstLimit: M.number(),
  sustainedRate: M.number(),
  lockoutDurationMs: M.number(),
  postLockoutPct: M.number(),
});

export const ChannelAttenuatorInterface: InterfaceGuard = M.interface('EndoChannelAttenuator', {
  setInvitationValidity: M.call(M.boolean()).returns(M.promise()),
  setHeatConfig: M.call(M.or(HeatConfigShape, M.null())).returns(M.promise()),
  getHeatConfig: M.call().returns(M.promise()),
  temporaryBan: M.call(M.number()).returns(M.promise()),
});
