/**
 * Eval-proposals (behaviour 5): sent without waiting, settled by the host later,
 * reported to the model, the proposer copy dismissed.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  waitForMessage,
  type AgentRun,
  type Message,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const propose = (source: string, resultName = 'answer') =>
  callTool('evaluate', {
    source,
    codeNames: [],
    petNamePaths: [],
    resultName,
    workerName: '#undefined',
  });

const startWithProposal = async (source: string) => {
  let originNumber = -1;
  const run = await start({
    steps: [
      request => {
        originNumber = latestMessageNumber(request);
        return propose(source);
      },
      say(''),
    ],
  });
  await run.send('please compute');
  const proposal = await waitForMessage(
    run.host,
    (message: Message) => message.type === 'eval-proposal-reviewer',
  );
  expect(proposal.source).toBe(source);
  await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
  return { run, proposal, originNumber: () => originNumber };
};

const guestInbox = async (run: AgentRun) =>
  asMessages(await E(run.host.guest(run.name).powers).listMessages());

describe('eval-proposals (behaviour 5)', () => {
  test('evaluate returns pending at once; a grant reports the result, stores it, and the copy is dismissed', async () => {
    const { run, proposal, originNumber } = await startWithProposal('6 * 7');
    // The first turn saw a hardened pending status, not an error.
    const firstResult = run.provider.requests[1]!.messages.at(-1)!.content;
    expect(JSON.parse(firstResult)).toMatchObject({ status: 'pending', resultName: 'answer' });
    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(/^GRANTED/);
      expect(notice).toContain('42');
      expect(notice).toContain(`reply(${originNumber()}`);
      return callTool('reply', { messageNumber: originNumber(), strings: ['The answer is 42'] });
    }, say(''));
    await run.host.grant(proposal.number);
    await run.reply('The answer is 42');
    expect(await E(run.host.guest(run.name).powers).lookup('answer')).toBe(42);
    await expect
      .poll(
        async () =>
          (await guestInbox(run)).filter(message => message.type === 'eval-proposal-proposer')
            .length,
      )
      .toBe(0);
  });

  test('a rejection reaches the model with the reason', async () => {
    const { run, proposal } = await startWithProposal('process.exit()');
    run.provider.push(say('Your host declined: too risky'));
    await run.host.rejectProposal(proposal.number, 'too risky');
    await run.reply(/declined/);
    const notice = run.provider.requests.at(-1)!.messages.at(-1)!.content;
    expect(notice).toMatch(/^REJECTED/);
    expect(notice).toContain('too risky');
    await expect
      .poll(
        async () =>
          (await guestInbox(run)).filter(message => message.type === 'eval-proposal-proposer')
            .length,
      )
      .toBe(0);
  });

  test('a counter-proposal is shown with its new source', async () => {
    const { run, proposal } = await startWithProposal('6 * 7');
    run.provider.push(say('I see your counter-proposal.'));
    await run.host.counterPropose(proposal.number, { source: 'Math.max(6 * 7, 0)' });
    await run.reply('I see your counter-proposal.');
    const notice = run.provider.requests.at(-1)!.messages.at(-1)!.content;
    expect(notice).toMatch(/COUNTER-PROPOSAL/);
    expect(notice).toContain('Math.max(6 * 7, 0)');
    // The turn is titled by what it is about, not by the daemon's message type.
    const titles = run.events.flatMap(event => (event.kind === 'turn-start' ? [event.title] : []));
    expect(titles.at(-1)).toMatch(/: "counter-proposal: Math\.max\(6 \* 7, 0\)"$/);
    expect(titles.join('\n')).not.toContain('eval-proposal-reviewer');
  });

  test('a second message is answered while a proposal is still pending', async () => {
    const { run } = await startWithProposal('6 * 7');
    run.provider.push(say('pong'));
    await run.send('ping');
    await run.reply('pong');
  });
});

describe('requests (behaviour 4)', () => {
  test('request returns at once; the answer comes back as a notice and the sender is told', async () => {
    let originNumber = -1;
    const run = await start({
      steps: [
        request => {
          originNumber = latestMessageNumber(request);
          return callTool('request', {
            recipient: 'HOST',
            description: 'your favourite colour',
            responseName: 'colour',
          });
        },
        say(''),
      ],
    });
    await run.send('find out my favourite colour');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    expect(asked.description).toBe('your favourite colour');
    // The turn ended while the request is still open: the agent is free for other mail.
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
    expect(JSON.parse(run.provider.requests[1]!.messages.at(-1)!.content)).toMatchObject({
      status: 'pending',
      requestId: 'r1',
    });
    run.provider.push(say('pong'));
    await run.send('ping');
    await run.reply('pong');
    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(/^ANSWERED: HOST answered your request r1/);
      expect(notice).toContain('blue');
      return callTool('reply', {
        messageNumber: originNumber,
        strings: ['Your favourite colour is blue'],
      });
    });
    await E(run.host.host).storeValue(harden('blue'), 'favourite');
    await E(run.host.host).resolve(asked.number, 'favourite');
    await run.reply('Your favourite colour is blue');
    expect(await E(run.host.guest(run.name).powers).lookup('colour')).toBe('blue');
  });
});
