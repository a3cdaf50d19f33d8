/**
 * Mail followed again after its stream failed (mail/follow-mail-with-retry.ts):
 * a message sent while the agent could not follow its mail, and one sent
 * after it follows again, are each answered once; the message answered
 * before the failure is not answered again when the inbox is read anew.
 */
import { expect, test } from 'vitest';
import { asMessages, replyStep, textOf, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** The agent's answers to the HOST (not its greeting or its report on the mailbox). */
const answers = async (run: AgentRun): Promise<string[]> =>
  asMessages(await run.host.host.listMessages())
    .filter(message => message.from !== run.host.hostId)
    .map(textOf)
    .filter(text => text.startsWith('answer to '));

test('mail sent during and after a failed stream is answered once each, and nothing is answered twice', async () => {
  const run = await start({
    steps: [replyStep('answer to one'), replyStep('answer to two'), replyStep('answer to three')],
  });
  await run.send('one');
  await run.reply('answer to one');
  // The open stream fails, and so does the next attempt to follow: the agent waits and follows again.
  run.host.failFollowing(run.name, 1);
  await expect
    .poll(() => run.logs.some(line => line.startsWith('following mail failed: ')))
    .toBe(true);
  await run.send('two');
  await run.reply('answer to two');
  expect(run.logs).toContain('following mail again after 2 failed attempt(s)');
  await run.send('three');
  await run.reply('answer to three');
  expect(await answers(run)).toEqual(['answer to one', 'answer to two', 'answer to three']);
  // One model call per message: none was served twice.
  expect(run.provider.requests).toHaveLength(3);
});
