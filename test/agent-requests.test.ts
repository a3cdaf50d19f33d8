/**
 * Requests the agent makes (`request`): a declined request comes back as a
 * DECLINED notice with the reason and is answered to the message it was
 * made for; while a request is open, the message that asked for it is not
 * dismissed and its sender is not told "I could not answer".
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  textOf,
  waitForMessage,
  type AgentRun,
  type Message,
} from './support/agent-harness.js';
import { turnEnds } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const guestInbox = async (run: AgentRun) =>
  asMessages(await E(run.host.guest(run.name).powers).listMessages());

describe('requests the agent makes', () => {
  test('a declined request reaches the model with the reason and its answer goes to the message that asked', async () => {
    let originNumber = -1;
    const run = await start({
      steps: [
        request => {
          originNumber = latestMessageNumber(request);
          return callTool('request', { recipient: 'HOST', description: 'the door code' });
        },
        say(''),
      ],
    });
    await run.send('open the door');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    expect(asked.description).toBe('the door code');
    await expect.poll(() => turnEnds(run)).toBe(1);

    // While the request is open: the message stays in the inbox, and its sender is not told the agent could not answer
    // (checked after the next message is served, so the first turn's ending is over).
    run.provider.push(say('pong'));
    await run.send('ping');
    await run.reply('pong');
    expect(
      (await guestInbox(run)).some(message => BigInt(message.number) === BigInt(originNumber)),
    ).toBe(true);

    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(
        /^DECLINED: HOST did not grant your request r1 to HOST \("the door code"\): not telling/,
      );
      // No responseName was given, so the notice does not claim the answer was kept.
      expect(notice).not.toContain('kept as');
      return callTool('reply', {
        messageNumber: originNumber,
        strings: ['HOST would not give me the code.'],
      });
    });
    await E(run.host.host).reject(asked.number, 'not telling');
    const answer = await run.reply('HOST would not give me the code.');
    const hostInbox = asMessages(await E(run.host.host).listMessages());
    expect(answer.replyTo).toBeDefined();
    expect(
      hostInbox.some(
        message =>
          message.type === 'package' &&
          message.messageId === answer.replyTo &&
          textOf(message) === 'open the door',
      ),
    ).toBe(true);
    const sentToHost = hostInbox.filter(message => message.from !== run.host.hostId);
    expect(sentToHost.filter(message => /could not answer/.test(textOf(message)))).toEqual([]);
    // Answered: the message is dismissed now.
    await expect
      .poll(async () =>
        (await guestInbox(run)).some(message => BigInt(message.number) === BigInt(originNumber)),
      )
      .toBe(false);
  });

  test('a request answered with a long value shows the model a cut preview and keeps the whole value', async () => {
    let originNumber = -1;
    const run = await start({
      steps: [
        request => {
          originNumber = latestMessageNumber(request);
          return callTool('request', {
            recipient: 'HOST',
            description: 'the essay',
            responseName: 'essay',
          });
        },
        say(''),
      ],
    });
    await run.send('get me the essay');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    await expect.poll(() => turnEnds(run)).toBe(1);
    const essay = 'word '.repeat(1_000);
    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(/^ANSWERED: HOST answered your request r1 .*, kept as "essay": /);
      expect(notice).toMatch(/characters in all\)/);
      expect(notice.length).toBeLessThan(essay.length);
      return callTool('reply', { messageNumber: originNumber, strings: ['Got it.'] });
    });
    await E(run.host.host).storeValue(essay, 'essay-text');
    await E(run.host.host).resolve(asked.number, 'essay-text');
    await run.reply('Got it.');
    expect(await E(run.host.guest(run.name).powers).lookup('essay')).toBe(essay);
  });
});
