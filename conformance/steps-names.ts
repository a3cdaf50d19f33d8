/** The guest's pet names: list, has, identify, lookup, storeValue, write/storeIdentifier, directories. */
import { makeDaemonAdapter } from '../src/daemon/daemon-adapter.js';
import type { Recorder } from './recorder.js';
import { far, type Parties } from './parties.js';

const sorted = async (names: Promise<unknown>) => [...((await names) as string[])].sort();

export const nameSteps = async (rec: Recorder, parties: Parties) => {
  const { guest, names } = parties;
  await rec.step('guest lists its names', () => sorted(far(guest).list!()));
  await rec.step('guest has its host', () => far(guest).has!(names.host));
  await rec.step('guest identifies itself', () => far(guest).identify!(names.self));
  await rec.step('guest identifies an unknown name', () => far(guest).identify!('nope'));
  await rec.step('guest looks up an unknown name', () => far(guest).lookup!('nope'));
  await rec.step('guest stores a string', () => far(guest).storeValue!('text', 'stored-text'));
  await rec.step('guest looks up the string', () => far(guest).lookup!('stored-text'));
  await rec.step('guest names the same id again', async () => {
    const id = (await far(guest).identify!('stored-text')) as string;
    const adapter = await makeDaemonAdapter(guest, () => {});
    const target = adapter.idOf(id) ?? id;
    await adapter.storeIdentifier(['alias'], target);
    return far(guest).lookup!('alias');
  });
  await rec.step('guest makes a directory', () => far(guest).makeDirectory!('tools'));
  await rec.step('guest lists the new directory', () => sorted(far(guest).list!('tools')));
  await rec.step('guest stores into the directory', () =>
    far(guest).storeValue!(1n, ['tools', 'one']),
  );
  await rec.step('guest lists the directory again', () => sorted(far(guest).list!('tools')));
  await rec.step('guest lists the directory ids', async () => {
    const ids = (await far(guest).listIdentifiers!('tools')) as unknown[];
    return ids.length;
  });
  await rec.step('guest moves a name', () => far(guest).move!(['alias'], ['alias-moved']));
  await rec.step('guest removes a name', () => far(guest).remove!('alias-moved'));
  await rec.step('guest lists its names after the edits', () => sorted(far(guest).list!()));
  await rec.step('guest stores a bad pet name', () => far(guest).storeValue!(1n, 'Bad Name!'));
  // Both daemons list a directory's names at once but read each one's id as it is given
  // (pet-store.js): a name removed meanwhile fails the listing (issue 35, a fresh Fae's start).
  await rec.step('a name removed while its directory is listed fails the listing', async () => {
    await far(guest).makeDirectory!('race');
    for (const name of ['a', 'b', 'c']) await far(guest).storeValue!(1n, ['race', name]);
    const adapter = await makeDaemonAdapter(guest, () => {});
    const changes = await adapter.followNameChanges(await far(guest).lookup!('race'));
    const seen: unknown[] = [];
    try {
      seen.push(((await changes.next()).value as { add?: unknown }).add);
      await far(guest).remove!('race', 'c');
      for (let index = 0; index < 2; index += 1)
        seen.push(((await changes.next()).value as { add?: unknown; remove?: unknown }) ?? null);
      return seen;
    } finally {
      await Promise.resolve(changes.return(undefined)).catch(() => {});
    }
  });
};
harden(nameSteps);
