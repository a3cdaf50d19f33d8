/**
 * After a restart: the guest is provided again, its names and undismissed
 * mail are still there, following its mail replays them, and numbering goes on.
 */
import type { Recorder } from './recorder.js';
import { followFirst } from './steps-mail.js';
import { far, GUEST_NAME, listMessages, type Parties } from './parties.js';

const sorted = async (names: Promise<unknown>) => [...((await names) as string[])].sort();

export const afterRestartSteps = async (rec: Recorder, parties: Parties) => {
  const { host, guest } = parties;
  await rec.step('guest looks up its names after the restart', async () => ({
    adopted: await far(guest).lookup!('adopted-gift'),
    stored: await far(guest).lookup!('stored-text'),
    tools: await sorted(far(guest).list!('tools')),
  }));
  const messages = await rec.step("guest's messages after the restart", () =>
    listMessages(parties, guest),
  );
  await rec.step("following the guest's mail replays what is undismissed", () =>
    followFirst(parties, messages?.length ?? 0),
  );
  await rec.step("host's messages after the restart", () => listMessages(parties, host));
  await rec.step('host sends after the restart', () =>
    far(host).send!(GUEST_NAME, ['after the restart'], [], []),
  );
  await rec.step("guest's last message after the restart", async () =>
    (await listMessages(parties, guest)).at(-1),
  );
};
harden(afterRestartSteps);
