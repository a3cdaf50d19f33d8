/**
 * Channels (newest daemon only, docs/daemon-api.md "Channels"): the host
 * makes one, invites the guest, the guest joins and posts in a thread, the
 * admin edits nothing but reads members and messages; a disabled member's
 * call; after the restart the messages and members are still there and the
 * guest joins again. Recorded against a real newest daemon (1ef30c259) on
 * 2026-11-29, where the double answered every step alike.
 */
import type { Recorder } from './recorder.js';
import { far, type Far, type Parties } from './parties.js';

const CHANNEL = 'conf-channel';

/** A channel message without what differs run to run (its id, its date). */
const reduce = (record: unknown) => {
  const { messageId: _id, date: _date, ...rest } = record as Record<string, unknown>;
  return rest;
};

const messagesOf = async (channel: unknown) =>
  ((await far(channel).listMessages!()) as unknown[]).map(reduce);

export const channelSteps = async (rec: Recorder, parties: Parties) => {
  const { host } = parties;
  const admin = await rec.step('host makes a channel', async () => {
    const made = await far(host).makeChannel!(CHANNEL, 'Conf Host');
    return made;
  });
  if (admin === undefined) return;
  await rec.step("the admin's member id and name", async () => ({
    memberId: await far(admin).getMemberId!(),
    proposedName: await far(admin).getProposedName!(),
  }));
  const pair = await rec.step('the admin invites the guest', async () => {
    const made = (await far(admin).createInvitation!('conf-guest')) as unknown[];
    return { length: made.length };
  });
  if (pair === undefined) return;
  const member = (await rec.step('the guest joins by name through the admin', () =>
    far(admin).join!('conf-guest'),
  )) as Far | undefined;
  await rec.step(
    'the admin posts, the member answers in its thread and edits its answer',
    async () => {
      await far(admin).post!(['hello @conf-guest'], [], []);
      await far(member).post!(['Thinking...'], [], [], '0');
      await far(member).post!(['the answer'], [], [], '1', [], 'edit');
      return messagesOf(admin);
    },
  );
  await rec.step('members as the admin lists them, and one by id', async () => ({
    members: await far(admin).getMembers!(),
    one: await far(admin).getMember!('1'),
    unknown: (await far(admin).getMember!('99')) ?? '<none>',
  }));
  await rec.step('the member renames itself', async () => {
    await far(member).setProposedName!('Guest');
    return far(member).getProposedName!();
  });
  await rec.step('a second invitation under a used name', () =>
    far(admin).createInvitation!('conf-guest'),
  );
  await rec.step('a disabled member posts', async () => {
    const [, attenuator] = (await far(admin).createInvitation!('conf-other')) as unknown[];
    const other = await far(admin).join!('conf-other');
    await far(attenuator).setInvitationValidity!(false);
    return far(other).post!(['muted'], [], []);
  });
};
harden(channelSteps);

export const channelAfterRestartSteps = async (rec: Recorder, parties: Parties) => {
  const admin = await rec.step('the channel after the restart', () =>
    far(parties.host).lookup!(CHANNEL),
  );
  if (admin === undefined) return;
  await rec.step('its messages after the restart', () => messagesOf(admin));
  await rec.step('its members after the restart', () => far(admin).getMembers!());
  await rec.step('the guest joins again and posts', async () => {
    const member = await far(admin).join!('conf-guest');
    await far(member).post!(['after the restart'], [], []);
    return {
      memberId: await far(member).getMemberId!(),
      last: (await messagesOf(admin)).at(-1),
    };
  });
};
harden(channelAfterRestartSteps);
