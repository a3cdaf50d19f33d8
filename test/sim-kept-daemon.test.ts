/**
 * The daemon double's kept state (sim/chat/kept-daemon.ts; docs/behaviour.md 10.1): a file the
 * last release wrote (no channels in it) still loads, and the newest daemon's channels are kept
 * from then on — each channel under its id, with its posts, its members and the names that reach
 * it — while a kept channel that does not read whole is left out and loses nothing else.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { E } from '@endo/far';
import { describe, expect, it } from 'vitest';
import { makeKeptDaemon } from '../sim/chat/kept-daemon.js';
import { makeMailHost } from '../sim/mail-host/index.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

type Far = any;

/**
 * The last release's file: an identity, numbers and mail, no channels. (Its `seeded` covers every
 * id the daemon makes at start, as a file written by a run does, so the HOST keeps its id.)
 */
const OLD_FILE = {
  version: 1,
  generations: {
    newest: { seed: 'c0ffee'.repeat(10), seeded: 1000, numbers: {}, mail: {} },
  },
};

/** A run of the simulator's daemon on `folder`, as npm start --newest makes it. */
const startDaemon = async (folder: string) => {
  const kept = makeKeptDaemon(folder, false);
  const mailHost = makeMailHost({ profile: 'newest', identity: kept.identity('newest') });
  await E(mailHost.host).provideGuest('lal', { agentName: 'profile-for-lal' });
  kept.started('newest', mailHost);
  await kept.putBackChannels('newest', mailHost);
  return { kept, mailHost, host: E(mailHost.host as Far) };
};

const postsIn = async (channel: unknown) =>
  ((await E(channel as Far).listMessages()) as { memberId: string; strings: string[] }[]).map(
    post => `${post.memberId}: ${post.strings.join('')}`,
  );

describe("the daemon double's kept state", () => {
  it('loads a file of the last release, and keeps channels from then on', async () => {
    const folder = makeTempFolder('state');
    writeFileSync(join(folder, 'daemon.json'), JSON.stringify(OLD_FILE));
    const first = await startDaemon(folder);
    const room = await first.host.makeChannel('room', 'you');
    await E(room).post(['hello'], [], []);
    await E(room).createInvitation('bob');
    const bob = await E(room).join('bob');
    await E(bob).post(['hi from bob'], [], []);
    const roomId = await first.host.identify('room');
    first.kept.save('newest', first.mailHost);

    const written = JSON.parse(readFileSync(join(folder, 'daemon.json'), 'utf8'));
    expect(written.generations.newest.seed).toBe(OLD_FILE.generations.newest.seed);

    const second = await startDaemon(folder);
    expect(await second.host.identify('room')).toBe(roomId);
    const again = await second.host.lookup('room');
    expect(await postsIn(again)).toEqual(['0: hello', '1: hi from bob']);
    // bob's membership was kept: he joins again by his invitation and posts on.
    const bobAgain = await E(again).join('bob');
    await E(bobAgain).post(['back'], [], []);
    expect(await postsIn(again)).toEqual(['0: hello', '1: hi from bob', '1: back']);
  });

  it("keeps a guest's name for a channel one folder down (the agent's agent-channels/<key>)", async () => {
    const folder = makeTempFolder('state');
    const first = await startDaemon(folder);
    const room = await first.host.makeChannel('room', 'you');
    const guest = E(first.mailHost.guest('lal').powers as Far);
    await guest.makeDirectory('agent-channels');
    await guest.storeIdentifier(['agent-channels', 'ch-1'], await first.host.identify('room'));
    await E(room).post(['hello'], [], []);
    first.kept.save('newest', first.mailHost);

    const second = await startDaemon(folder);
    const seen = await E(second.mailHost.guest('lal').powers as Far).lookup([
      'agent-channels',
      'ch-1',
    ]);
    expect(await postsIn(seen)).toEqual(['0: hello']);
  });

  it('leaves out a kept channel that does not read whole, and puts back the rest', async () => {
    const folder = makeTempFolder('state');
    const first = await startDaemon(folder);
    await first.host.makeChannel('room', 'you');
    first.kept.save('newest', first.mailHost);
    const path = join(folder, 'daemon.json');
    const file = JSON.parse(readFileSync(path, 'utf8'));
    const [good] = file.generations.newest.channels;
    file.generations.newest.channels = [
      { ...good, id: 'not-an-id' },
      { ...good, store: { ...good.store, nextNumber: 'many' } },
      good,
    ];
    writeFileSync(path, JSON.stringify(file));

    const second = await startDaemon(folder);
    expect(await postsIn(await second.host.lookup('room'))).toEqual([]);
  });
});
