/**
 * Mail followed again after its stream failed (mail/follow-mail-with-retry.ts):
 * a message sent while the agent could not follow its mail, and one sent
 * after it follows again, are each answered once; the message answered
 * before the failure is not answered again when the inbox is read anew;
 * and a message the daemon shows again (the backlog read anew, or one
 * delivered while a follower still reads the backlog: both daemons give it
 * twice, docs/daemon-api.md) is taken in once: it waits once, not twice
 * (docs/behaviour.md 2.13).
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import type { AgentEvent } from '../src/events/agent-events.js';
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

const heldNumbers = (events: readonly AgentEvent[]): bigint[] =>
  events.flatMap(event => (event.kind === 'held' ? [event.number] : []));

describe.each(DAEMON_PROFILES)('a message shown again, on the %s daemon', profile => {
  test('a waiting message is taken in once however often the daemon shows it', async () => {
    const run = await start({
      profile,
      env: { LAL_MAX_TURNS_PER_SENDER_PER_HOUR: '1' },
      steps: [replyStep('answer to bob')],
      prepare: async (host, name) => {
        await E(host.host).provideGuest('bob', { introducedNames: { [name]: 'lal' } });
      },
    });
    const bob = run.host.guest('bob').powers;
    const numberOf = (text: string) =>
      run.host
        .guest(run.name)
        .inbox()
        .find(message => textOf(message as { strings?: string[] }) === text)!.number;
    await E(bob).send('lal', ['one'], [], []);
    await expect.poll(() => run.provider.requests.length).toBe(1);
    // Past the hourly bound: bob's next messages wait in the inbox.
    await E(bob).send('lal', ['two'], [], []);
    await E(bob).send('lal', ['three'], [], []);
    const [two, three] = [numberOf('two'), numberOf('three')];
    await run.untilEvent(event => event.kind === 'held' && event.number === three);
    // The stream fails and is followed again: the daemon shows the waiting messages anew.
    run.host.failFollowing(run.name, 0);
    await expect.poll(() => run.logs).toContain('following mail again after 1 failed attempt(s)');
    // Shown after every message the new stream replays: once it waits, they were all seen.
    await E(bob).send('lal', ['four'], [], []);
    const four = numberOf('four');
    await run.untilEvent(event => event.kind === 'held' && event.number === four);
    expect(heldNumbers(run.events)).toEqual([two, three, four]);
    expect(await run.help()).toMatch(/HELD by the hourly bound \(3 messages wait/);
    expect(run.provider.requests).toHaveLength(1);
  });
});
