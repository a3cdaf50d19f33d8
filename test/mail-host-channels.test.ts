/**
 * The daemon double's channels, as the newest daemon has them (docs/daemon-api.md
 * "Channels"): the admin, invitations, members and their messages, a disabled
 * member, heat, a restart, and the chat UI's mention notification; all through E().
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { readStream } from '../src/daemon/stream-reader-client.js';

type Far = any;

const withChannel = async (now?: () => Date) => {
  const mailHost = makeMailHost({ profile: 'newest', ...(now === undefined ? {} : { now }) });
  const host = mailHost.host as Far;
  const admin = await E(host).makeChannel('general', 'Alice');
  return { mailHost, host, admin };
};

const invite = async (channel: Far, name: string) => {
  const [invitation, attenuator] = (await E(channel).createInvitation(name)) as [Far, Far];
  return { member: await E(invitation).join(name), attenuator, invitation };
};

describe('the double of the newest daemon’s channels', () => {
  test('makeChannel names an admin (member 0) whose posts and members read as the daemon’s', async () => {
    const { host, admin } = await withChannel();
    expect(await E(host).lookup('general')).toBe(admin);
    expect(await E(admin).getMemberId()).toBe('0');
    expect(await E(admin).getProposedName()).toBe('Alice');
    await E(admin).post(['hello'], [], []);
    const { member } = await invite(admin, 'bob');
    await E(member).post(['hi ', ''], ['x'], [], '0', ['some-id'], undefined);
    const messages = (await E(admin).listMessages()) as Far[];
    expect(messages.map(m => [m.number, m.memberId, m.strings.join(''), m.replyTo])).toEqual([
      [0n, '0', 'hello', undefined],
      [1n, '1', 'hi ', '0'],
    ]);
    expect(messages[1]).toMatchObject({ type: 'package', names: ['x'], ids: ['some-id'] });
    expect(typeof messages[1].messageId).toBe('string');
    expect(await E(member).getMemberId()).toBe('1');
    expect(await E(admin).getMembers()).toEqual([
      { proposedName: 'bob', invitedAs: 'bob', memberId: '1', pedigree: ['Alice'], active: true },
    ]);
    expect(await E(admin).getMember('1')).toEqual({
      proposedName: 'bob',
      invitedAs: 'bob',
      memberId: '1',
      pedigree: ['Alice'],
      pedigreeMemberIds: ['0'],
    });
    expect(await E(admin).getMember('9')).toBeUndefined();
    await E(member).setProposedName('Bobby');
    expect(await E(member).getProposedName()).toBe('Bobby');
    await expect(E(admin).createInvitation('bob')).rejects.toThrow(/already exists/);
  });

  test('followMessages gives every message so far, then each new one; an edit is a new message', async () => {
    const { admin } = await withChannel();
    await E(admin).post(['first'], [], []);
    const { member } = await invite(admin, 'lal');
    const stream = readStream(await E(member).followMessages());
    expect((await stream.next()).value.strings).toEqual(['first']);
    const later = stream.next();
    await E(member).post(['Thinking...'], [], [], '0');
    expect((await later).value.replyTo).toBe('0');
    await E(member).post(['the answer'], [], [], '1', [], 'edit');
    expect((await stream.next()).value).toMatchObject({
      number: 2n,
      replyTo: '1',
      replyType: 'edit',
    });
    await stream.return();
  });

  test('join finds the invitation by name, else the first unclaimed; a disabled member’s calls throw', async () => {
    const { admin } = await withChannel();
    await expect(E(admin).join('x')).rejects.toThrow(/No unclaimed invitation/);
    const [, attenuator] = (await E(admin).createInvitation('lal')) as [Far, Far];
    const member = await E(admin).join('lal');
    expect(await E(admin).join('lal')).toBe(member);
    await E(attenuator).setInvitationValidity(false);
    await expect(E(member).post(['hi'], [], [])).rejects.toThrow(
      'Channel member "lal" has been disabled',
    );
    await expect(E(member).listMessages()).rejects.toThrow(/disabled/);
  });

  test('heat: past its burst a member is locked out with the daemon’s words', async () => {
    // Time stands still: no cooling between posts.
    const { admin } = await withChannel(() => new Date('2026-11-27T10:00:00Z'));
    const { member, attenuator } = await invite(admin, 'lal');
    await E(attenuator).setHeatConfig({
      burstLimit: 3,
      sustainedRate: 1,
      lockoutDurationMs: 10_000,
      postLockoutPct: 40,
    });
    await E(member).post(['1'], [], []);
    await E(member).post(['2'], [], []);
    await expect(E(member).post(['3'], [], [])).rejects.toThrow(
      /^Rate limit lockout for "lal" \(10s remaining\)$/,
    );
    await expect(E(member).post(['4'], [], [])).rejects.toThrow(/Rate limit lockout for "lal"/);
    expect(((await E(admin).listMessages()) as Far[]).length).toBe(2);
  });

  test('a restart keeps messages and members; a joined handle is not kept, joining again is', async () => {
    const { mailHost, host, admin } = await withChannel();
    const { member } = await invite(admin, 'lal');
    await E(member).post(['before'], [], []);
    const stream = readStream(await E(member).followMessages());
    await stream.next();
    const waiting = stream.next();
    await mailHost.restart();
    await expect(waiting).rejects.toThrow(/Disconnected/);
    await expect(E(member).post(['old handle'], [], [])).rejects.toThrow(/Disconnected/);
    const again = await E(host).lookup('general');
    expect(again).not.toBe(admin);
    expect(((await E(again).listMessages()) as Far[]).map(m => m.strings[0])).toEqual(['before']);
    expect(((await E(again).getMembers()) as Far[]).map(m => m.invitedAs)).toEqual(['lal']);
    const rejoined = await E(again).join('lal');
    expect(await E(rejoined).getMemberId()).toBe('1');
    await E(rejoined).post(['after'], [], []);
    expect(((await E(again).listMessages()) as Far[]).map(m => m.number)).toEqual([0n, 1n]);
  });

  test('the chat UI’s mention: an invitation under the party’s name and the notification in its inbox', async () => {
    const { mailHost, host, admin } = await withChannel();
    await E(host).provideGuest('lal', { agentName: 'profile-for-lal' });
    const guest = await E(host).lookup('profile-for-lal');
    await E(admin).post(['what is 2+2? @lal'], [], []);
    await mailHost.mentionInChannel('general', 'lal');
    expect(((await E(admin).getMembers()) as Far[]).map(m => m.invitedAs)).toEqual(['lal']);
    const [note] = (await E(guest).listMessages()) as Far[];
    expect(note.names).toEqual(['general', 'alice']);
    expect(note.strings.join('|')).toBe(
      'You were mentioned in |:\n\n| (author): what is 2+2? @lal\n\n[channel-reply-info: edge=general join=lal replyTo=0]\nUse channelReply to respond.',
    );
    await E(guest).adopt(note.number, 'general', 'ch-general');
    expect(await E(guest).lookup('ch-general')).toBe(admin);
  });
});
