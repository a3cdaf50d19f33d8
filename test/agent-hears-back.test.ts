/**
 * Every sender hears back, about its own message (behaviour 2.8, 2.7, 3.9):
 * outcomes go to the message that caused them whichever turn is running,
 * a turn that ends without an answer tells the sender why, and every
 * failed turn is closed in the history so the next notice stands alone.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { ProviderError } from '../providers/types.js';
import { callTool, say, type RecordedRequest } from './support/scripted-provider.js';
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

const propose = (source: string) =>
  callTool('evaluate', {
    source,
    codeNames: [],
    petNamePaths: [],
    resultName: 'answer',
    workerName: '#undefined',
  });

const inbox = async (run: AgentRun) =>
  asMessages(await E(run.host.guest(run.name).powers).listMessages());
const transcript = (request: RecordedRequest) => JSON.stringify(request.messages);
const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>(settle => {
    resolve = settle;
  });
  return { promise, resolve };
};

/** Sends a message whose turn proposes code and ends; resolves to the message and the proposal. */
const proposeFrom = async (run: AgentRun, text: string) => {
  run.provider.push(propose(`'${text}'.length`), say(''));
  const before = turnEnds(run);
  await run.send(text);
  const proposal = await waitForMessage(
    run.host,
    (message: Message) =>
      message.type === 'eval-proposal-reviewer' && message.source === `'${text}'.length`,
  );
  await expect.poll(() => turnEnds(run)).toBe(before + 1);
  const origin = (await inbox(run)).find(
    message => message.type === 'package' && textOf(message) === text,
  );
  expect(origin, `message "${text}" awaits its proposal`).toBeDefined();
  return { proposal, origin: origin! };
};

describe('outcomes go to the message that caused them (behaviour 2.8)', () => {
  test("an outcome that settles during another message's turn answers its own sender and dismisses its own message", async () => {
    const run = await start();
    const first = await proposeFrom(run, 'compute');
    // The second message's turn is held in its first model call while the proposal is granted.
    const hold = deferred<void>();
    let secondNumber = -1;
    let secondTurnSaw = '';
    run.provider.push(
      async request => {
        secondNumber = latestMessageNumber(request);
        await hold.promise;
        return callTool('list', {});
      },
      request => {
        secondTurnSaw = transcript(request);
        return callTool('reply', { messageNumber: secondNumber, strings: ['pong'] });
      },
      request =>
        say(
          `outcome turn saw: ${/GRANTED/.test(request.messages.at(-1)!.content) ? 'GRANTED' : 'nothing'}`,
        ),
    );
    await run.send('ping');
    await expect.poll(() => secondNumber).toBeGreaterThan(-1);
    await run.host.grant(first.proposal.number);
    // The grant has settled at the agent once its proposer copy is gone.
    await expect
      .poll(
        async () =>
          (await inbox(run)).filter(message => message.type === 'eval-proposal-proposer').length,
      )
      .toBe(0);
    hold.resolve();
    await run.reply('pong');
    const told = await run.reply('outcome turn saw: GRANTED');
    expect(secondTurnSaw).not.toMatch(/GRANTED: the host ran/);
    expect(told.replyTo).toBe(first.origin.messageId);
    await expect
      .poll(async () => (await inbox(run)).some(message => message.number === first.origin.number))
      .toBe(false);
  });

  test('outcomes that settle together each answer their own origin', async () => {
    const run = await start();
    const one = await proposeFrom(run, 'alpha');
    const two = await proposeFrom(run, 'beta');
    const hold = deferred<void>();
    let heldNumber = -1;
    const aboutOrigin = (request: RecordedRequest) =>
      /message #(\d+)/.exec(request.messages.at(-1)!.content)?.[1] ?? '?';
    run.provider.push(
      async request => {
        heldNumber = latestMessageNumber(request);
        await hold.promise;
        return callTool('reply', { messageNumber: heldNumber, strings: ['held done'] });
      },
      request => say(`outcome for #${aboutOrigin(request)}`),
      request => say(`outcome for #${aboutOrigin(request)}`),
    );
    await run.send('hold on');
    await expect.poll(() => heldNumber).toBeGreaterThan(-1);
    await run.host.grant(one.proposal.number);
    await run.host.grant(two.proposal.number);
    await expect
      .poll(
        async () =>
          (await inbox(run)).filter(message => message.type === 'eval-proposal-proposer').length,
      )
      .toBe(0);
    hold.resolve();
    await run.reply('held done');
    const toOne = await run.reply(`outcome for #${one.origin.number}`);
    const toTwo = await run.reply(`outcome for #${two.origin.number}`);
    expect(toOne.replyTo).toBe(one.origin.messageId);
    expect(toTwo.replyTo).toBe(two.origin.messageId);
    await expect
      .poll(async () => (await inbox(run)).filter(message => message.type === 'package').length)
      .toBe(0);
  });
});

describe('the sender always hears back (behaviour 2.7)', () => {
  test('a model that goes silent after a tool call: the sender is told, the message dismissed', async () => {
    const run = await start({ steps: [callTool('list', {}), say('')] });
    await run.send('what do you have?');
    const told = await run.reply(
      /^I could not answer this: the model ended its turn without a reply\./,
    );
    expect(told.replyTo).toBeDefined();
    await expect.poll(async () => (await inbox(run)).length).toBe(0);
  });

  test('a model that says nothing even when nudged: the sender is told', async () => {
    const run = await start({ steps: [say(''), say('  ')] });
    await run.send('hello?');
    await run.reply(/^I could not answer this: the model ended its turn without a reply\./);
    expect(run.provider.requests).toHaveLength(2);
    await expect.poll(async () => (await inbox(run)).length).toBe(0);
  });

  test('a turn that throws: the sender is told why, the message dismissed, the next served', async () => {
    // A reply whose tool calls are not a list makes the loop throw.
    const broken = { role: 'assistant', content: '', toolCalls: 7 } as never;
    const run = await start({ steps: [broken, say('pong')] });
    await run.send('break please');
    const told = await run.reply(/^I could not answer this: the agent failed: /);
    expect(told.replyTo).toBeDefined();
    expect(run.logs.join('\n')).toMatch(/failed/);
    await run.send('ping');
    await run.reply('pong');
    await expect.poll(async () => (await inbox(run)).length).toBe(0);
  });

  test('a turn that throws emits one turn-start and one turn-end, and its sender hears exactly once', async () => {
    const broken = { role: 'assistant', content: '', toolCalls: 7 } as never;
    const run = await start({ steps: [broken, say('pong')] });
    await run.send('break please');
    await run.reply(/^I could not answer this: the agent failed: /);
    await run.send('ping');
    await run.reply('pong');
    const kinds = run.events.map(event => event.kind);
    expect(kinds.filter(kind => kind === 'turn-start')).toHaveLength(2);
    expect(kinds.filter(kind => kind === 'turn-end')).toHaveLength(2);
    const fromAgent = asMessages(await E(run.host.host).listMessages()).filter(
      message => message.type === 'package' && message.from !== run.host.hostId,
    );
    // The greeting, the one failure notice, and pong.
    expect(fromAgent.map(message => textOf(message).slice(0, 24))).toEqual([
      expect.stringMatching(/^Lal agent ready/),
      'I could not answer this:',
      'pong',
    ]);
  });

  test('a bound that ends the turn: the sender is told and the message dismissed', async () => {
    const run = await start({
      env: { LAL_MAX_MODEL_CALLS: '2' },
      steps: [callTool('has', { petNamePath: ['a'] }), callTool('has', { petNamePath: ['b'] })],
    });
    await run.send('wander');
    await run.reply(/the turn used its 2 model calls/);
    await expect.poll(async () => (await inbox(run)).length).toBe(0);
  });
});

describe('a failed turn is closed in the history (behaviour 3.9)', () => {
  test('after a model error the next notice is a user message of its own, after a line saying what happened', async () => {
    const run = await start({
      steps: [
        new ProviderError('server', 'the model server answered 500'),
        new ProviderError('server', 'again 500'),
        say('pong'),
      ],
    });
    await run.send('first');
    await run.reply(/the model failed: the model server answered 500/);
    await run.send('second');
    await run.reply(/the model failed: again 500/);
    await run.send('third');
    await run.reply('pong');
    const messages = run.provider.requests[2]!.messages.slice(1);
    const users = messages.filter(message => message.role === 'user');
    expect(users).toHaveLength(3);
    for (const [index, text] of ['first', 'second', 'third'].entries()) {
      expect(users[index]!.content).toMatch(new RegExp(`from HOST:\\s*${text}\\b`));
      expect(users[index]!.content).not.toMatch(/#\d+[^]*#\d+/);
    }
    // Each failed turn ends with one line saying what happened.
    const closings = messages
      .filter(message => message.role === 'assistant')
      .map(message => message.content);
    expect(closings).toHaveLength(2);
    expect(closings[0]).toMatch(
      /^\(No answer: the model failed: the model server answered 500; HOST was told\.\)$/,
    );
    expect(closings[1]).toMatch(/again 500/);
  });

  test('a turn that throws is closed too', async () => {
    const broken = { role: 'assistant', content: '', toolCalls: 7 } as never;
    const run = await start({ steps: [broken, say('pong')] });
    await run.send('break please');
    await run.reply(/^I could not answer this/);
    await run.send('ping');
    await run.reply('pong');
    const messages = run.provider.requests[1]!.messages.slice(1);
    expect(messages.map(message => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]!.content).toMatch(/^\(No answer: the agent failed: /);
  });
});

describe('telling the sender when its message is gone', () => {
  test('a plain-text answer to a message the model dismissed goes to the sender by name (the daemon cannot reply to it)', async () => {
    const run = await start({
      steps: [
        request => callTool('dismiss', { messageNumber: latestMessageNumber(request) }),
        say('pong, sent anew'),
      ],
    });
    await run.send('ping');
    const told = await run.reply('pong, sent anew');
    // A new message, not a reply: the reply to the dismissed message failed.
    expect(told.replyTo).toBeUndefined();
    await expect.poll(async () => (await inbox(run)).length).toBe(0);
  });
});
