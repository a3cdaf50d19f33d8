/**
 * A joined channel's posts wait in the work queue once, and only those the
 * agent has not seen (docs/behaviour.md 11): the channel's stream starts with
 * every post so far, and a post it shows again (as the inbox's does for mail,
 * src/mail/revision-gate.ts) is dropped as it arrives, not queued to be
 * skipped later by its last-seen number. Each piece of work costs the daemon
 * a write of the memory (issue 46), so what joining costs no longer grows
 * with what was said before. Through make(), on the newest daemon's double.
 */
import { expect, test } from 'vitest';
import {
  answer,
  answers,
  bobSays,
  makeChannelStarter,
  mentionedBy,
} from './support/channel-setting.js';
import { say, type Step } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const agents = useAgents();
const startInChannel = makeChannelStarter(agents.start);

/** The daemon writes from the mention that joins the channel to the next mention's model request. */
const writesAfterChatter = async (chatter: number): Promise<number> => {
  const counted = { writes: 0, atNext: -1 };
  // Read as the next mention's model request is made: the write that follows its turn (a moment
  // later, src/serving/serving-loop.ts) is not counted, whenever the poll below sees the request.
  const next: Step = (_request, _signal, onText) => {
    counted.atNext = counted.writes;
    // As answer('Next.') does: part of its text streamed first.
    onText('Ne');
    return say('Next.');
  };
  const setting = await startInChannel([answer('Four.'), next]);
  const { run } = setting;
  for (let index = 0; index < chatter; index += 1) await bobSays(setting, `chatter ${index}`);
  run.host.traceCalls(run.name, method => {
    if (method === 'storeValue') counted.writes += 1;
  });
  await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
  await bobSays(setting, '@lal next');
  // Every post the watch queued before this one was served (or skipped) before its model request.
  await expect.poll(() => answers(run).length).toBe(2);
  return counted.atNext;
};

test('the posts before the agent joined are not queued: joining costs the same writes however many there were', async () => {
  const few = await writesAfterChatter(1);
  const many = await writesAfterChatter(5);
  expect(many).toBe(few);
});
