/**
 * The newest daemon's channels kept between runs (sim/mail-host/kept-channels.ts, docs/behaviour.md
 * 10.1), at the module: which names are kept (a channel's, at the top of a directory or one folder
 * down, whoever's directory; never another formula's), each under its channel; and what is put
 * back (a kept name whose agent, path or channel does not read whole is left out and loses nothing
 * else; a folder that is there already is kept as it is, with what else it holds).
 */
import { E } from '@endo/far';
import { describe, expect, it } from 'vitest';
import { makeKeptDaemon } from '../sim/chat/kept-daemon.js';
import { makeMailHost, type KeptChannelNames } from '../sim/mail-host/index.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

type Far = any;

/** A run of the newest daemon double with the identity `folder` keeps (the same ids each run). */
const startDaemon = async (folder: string) => {
  const kept = makeKeptDaemon(folder, false);
  const mailHost = makeMailHost({ profile: 'newest', identity: kept.identity('newest') });
  await E(mailHost.host).provideGuest('lal', { agentName: 'profile-for-lal' });
  kept.started('newest', mailHost);
  const save = () => kept.save('newest', mailHost);
  return {
    mailHost,
    save,
    host: E(mailHost.host as Far),
    guest: E(mailHost.guest('lal').powers as Far),
  };
};

/** A daemon with two channels: `room`, named by HOST at the top and in a folder, and by the agent one folder down; `hall`, by HOST alone. */
const twoChannels = async (folder: string) => {
  const first = await startDaemon(folder);
  await first.host.makeChannel('room', 'you');
  await first.host.makeChannel('hall', 'you');
  const room = await first.host.identify('room');
  const hall = await first.host.identify('hall');
  await first.host.makeDirectory('notes');
  await first.host.storeIdentifier(['notes', 'room-too'], room);
  // A folder entry that is not a channel: never kept.
  await first.host.storeIdentifier(['notes', 'someone'], await first.host.identify('lal'));
  await first.guest.makeDirectory('agent-channels');
  await first.guest.storeIdentifier(['agent-channels', 'ch-1'], room);
  return { first, room, hall };
};

const namesOf = (kept: readonly KeptChannelNames[], id: string) =>
  kept.find(channel => channel.id === id)?.names;

describe('the names kept with each channel', () => {
  it("are its own, at the top or one folder down, in HOST's directory and the agent's", async () => {
    const { first, room, hall } = await twoChannels(makeTempFolder('state'));
    const kept = first.mailHost.keptChannels();
    expect(kept.map(channel => channel.id).sort()).toEqual([room, hall].sort());
    const agentOf = (path: readonly string[]) =>
      namesOf(kept, room)!.find(name => name.path.join('/') === path.join('/'))?.agentId;
    expect(
      namesOf(kept, room)!
        .map(name => name.path.join('/'))
        .sort(),
    ).toEqual(['agent-channels/ch-1', 'notes/room-too', 'room']);
    // Each under the directory it is in: HOST's two, the agent's one.
    const hostId = agentOf(['room']);
    expect(agentOf(['notes', 'room-too'])).toBe(hostId);
    expect(agentOf(['agent-channels', 'ch-1'])).toMatch(/./);
    expect(agentOf(['agent-channels', 'ch-1'])).not.toBe(hostId);
    expect(namesOf(kept, hall)).toEqual([{ agentId: hostId, path: ['hall'] }]);
  });
});

describe('putting kept channels back', () => {
  /** Keeps the channels of a first run, lets `edit` change them, and puts them back in a second. */
  const putBack = async (
    edit: (kept: KeptChannelNames[], ids: { room: string; hall: string }) => unknown[],
    before?: (second: Awaited<ReturnType<typeof startDaemon>>, room: string) => Promise<void>,
  ) => {
    const folder = makeTempFolder('state');
    const { first, room, hall } = await twoChannels(folder);
    const kept = JSON.parse(JSON.stringify(first.mailHost.keptChannels())) as KeptChannelNames[];
    first.save();
    const second = await startDaemon(folder);
    await before?.(second, room);
    await second.mailHost.putBackChannels(edit(kept, { room, hall }));
    return { second, room, hall };
  };

  it('makes each channel again under its names, the folders they need made', async () => {
    const { second, room, hall } = await putBack(kept => kept);
    expect(await second.host.identify('room')).toBe(room);
    expect(await second.host.identify('hall')).toBe(hall);
    expect(await second.host.identify('notes', 'room-too')).toBe(room);
    expect(await second.guest.identify('agent-channels', 'ch-1')).toBe(room);
  });

  it('keeps a folder that is there already, with what else it holds', async () => {
    const { second, room } = await putBack(
      kept => kept,
      async (again, id) => {
        await again.guest.makeDirectory('agent-channels');
        await again.guest.storeIdentifier(['agent-channels', 'mine'], id);
      },
    );
    expect(await second.guest.identify('agent-channels', 'ch-1')).toBe(room);
    expect(await second.guest.identify('agent-channels', 'mine')).toBe(room);
  });

  it("leaves out a name whose agent, path or parts do not read, and puts back the channel's others", async () => {
    const { second, room } = await putBack(kept =>
      kept.map(channel =>
        channel.names.some(name => name.path[0] === 'room')
          ? {
              ...channel,
              names: [
                ...channel.names.filter(name => name.path[0] === 'room'),
                { agentId: 'no-such-agent', path: ['stray'] },
                { agentId: channel.names[0]!.agentId, path: [] },
                { agentId: channel.names[0]!.agentId, path: ['a', 'b', 'c'] },
                { agentId: channel.names[0]!.agentId, path: ['notes', 7] },
                { agentId: channel.names[0]!.agentId, path: 'flat' },
              ],
            }
          : channel,
      ),
    );
    expect(await second.host.identify('room')).toBe(room);
    expect(await second.host.has('stray')).toBe(false);
    expect(await second.host.has('a')).toBe(false);
    expect(await second.host.list()).not.toContain('flat');
  });

  it('a channel kept with no list of names is made again, named by none', async () => {
    const { second, hall } = await putBack((kept, ids) =>
      kept.map(channel => (channel.id === ids.hall ? { ...channel, names: 'hall' } : channel)),
    );
    expect(await second.host.has('hall')).toBe(false);
    expect(await second.host.identify('room')).toBeDefined();
    expect(second.mailHost.keptChannels().map(channel => channel.id)).toContain(hall);
  });

  it('a channel that is not made again has none of its names written', async () => {
    const { second } = await putBack((kept, ids) =>
      kept.map(channel =>
        channel.id === ids.hall ? { ...channel, store: { nextNumber: 'many' } } : channel,
      ),
    );
    expect(await second.host.has('hall')).toBe(false);
    expect(await second.host.has('room')).toBe(true);
  });
});
