/**
 * The agent under lockdown in the daemon double, through E(): mail, the
 * ReAct loop, the Lal tools and the text forms of tool calls.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { ProviderError } from '../providers/types.js';
import { DAEMON_PROFILES, specialNamesOf, type DaemonProfile } from '../sim/mail-host/index.js';
import { callTool, say, type RecordedRequest } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  replyStep,
  startAgent,
  textOf,
  type AgentRun,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start: startTracked } = useAgents();

const toolResults = (request: RecordedRequest) =>
  request.messages.filter(message => message.role === 'tool').map(message => message.content);

const startOn = (profile: DaemonProfile, options: Parameters<typeof startAgent>[0] = {}) =>
  startTracked({ profile, ...options });

const undismissed = async (run: AgentRun) =>
  asMessages(await E(run.host.guest(run.name).powers).listMessages());

// The core mail and tool tests run on both daemon generations the mail host plays.
describe.each(DAEMON_PROFILES)('mail (2) on the %s daemon', profile => {
  const special = specialNamesOf(profile);
  const start = (options: Parameters<typeof startAgent>[0] = {}) => startOn(profile, options);
  test('greets HOST, answers ping with pong in one model call, and leaves nothing undismissed', async () => {
    const run = await start({ steps: [replyStep('pong'), say('never asked for')] });
    await run.send('ping');
    const pong = await run.reply('pong');
    expect(pong.replyTo).toBeDefined();
    await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
    // The reply to the sender ends the turn: no second call just to say "done".
    expect(run.provider.requests).toHaveLength(1);
    // The notice already holds the message: the model need not list its inbox.
    expect(run.provider.requests[0]!.messages.at(-1)!.content).toMatch(
      new RegExp(`Message #\\d+ from ${special.host}:\\s*ping`),
    );
    await expect.poll(async () => (await undismissed(run)).length).toBe(0);
  });

  test('with LAL_STOP_AFTER_ANSWER=0 the model has the last word: two calls', async () => {
    const run = await start({
      env: { LAL_STOP_AFTER_ANSWER: '0' },
      steps: [replyStep('pong'), say('Done.')],
    });
    await run.send('ping');
    await run.reply('pong');
    await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
    expect(run.provider.requests).toHaveLength(2);
  });

  test('a plain-text answer is sent to the sender: one model call', async () => {
    const run = await start({ steps: [say('pong')] });
    await run.send('ping');
    await run.reply('pong');
    expect(run.provider.requests).toHaveLength(1);
  });

  test('fae shows mail as "Message #N from <pet name>: text"', async () => {
    const run = await start({ persona: 'fae', steps: [say('hello')] });
    await run.send('hi there');
    await run.reply('hello');
    expect(run.provider.requests[0]!.messages.at(-1)!.content).toMatch(
      new RegExp(`^Message #\\d+ from ${special.host}: hi there$`),
    );
    expect(run.provider.requests[0]!.messages[0]!.content).toMatch(/You are Fae/);
  });

  test('its own messages never start a turn', async () => {
    const run = await start({ steps: [say('pong')] });
    await E(run.host.guest(run.name).powers).send(special.host, ['talking to myself'], [], []);
    await run.reply('talking to myself');
    // Mail is served in order: once the next message is answered, its own copy has been passed by.
    await run.send('ping');
    await run.reply('pong');
    expect(run.provider.requests).toHaveLength(1);
    expect(JSON.stringify(run.provider.requests[0]!.messages)).not.toContain('talking to myself');
  });

  test('reply and dismiss accept a plain-number message number', async () => {
    const run = await start({
      steps: [
        request => {
          const number = latestMessageNumber(request);
          return {
            role: 'assistant',
            content: '',
            toolCalls: [
              {
                id: 'r1',
                name: 'reply',
                arguments: JSON.stringify({ messageNumber: number, strings: ['got it'] }),
              },
              {
                id: 'd1',
                name: 'dismiss',
                arguments: JSON.stringify({ messageNumber: String(number) }),
              },
            ],
          };
        },
      ],
    });
    await run.send('hello');
    await run.reply('got it');
    await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
    const results = run.events.flatMap(event => (event.kind === 'tool-result' ? [event] : []));
    expect(results.map(result => [result.name, result.ok])).toEqual([
      ['reply', true],
      ['dismiss', true],
    ]);
    expect(results[1]!.preview).toContain('"dismissed"');
  });

  test('send keeps strings such as "- item (note) $5" as written', async () => {
    const run = await start({
      steps: [
        callTool('send', { recipient: special.host, strings: ['- item (note) $5'] }),
        say(''),
      ],
    });
    await run.send('make a list');
    const sent = await run.reply('- item (note) $5');
    expect(textOf(sent)).toBe('- item (note) $5');
  });

  test('broken JSON arguments and an unknown tool reach the model as clear errors; the turn finishes', async () => {
    const run = await start({
      steps: [
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'x1', name: 'reply', arguments: '{"messageNumber": 1, "strings": ["pong"' },
          ],
        },
        callTool('frobnicate', {}),
        replyStep('pong'),
        say('done'),
      ],
    });
    await run.send('ping');
    await run.reply('pong');
    const [, second, third] = run.provider.requests;
    expect(toolResults(second!).at(-1)).toMatch(/not valid JSON/);
    expect(toolResults(third!).at(-1)).toMatch(/Unknown tool \\"frobnicate\\"/);
  });

  test('tool calls written as <tool_call> JSON and as <function=…> text are run; <think> never reaches the transcript', async () => {
    const run = await start({
      env: { LAL_STOP_AFTER_ANSWER: '0' },
      steps: [
        () =>
          say(
            `<think>I should answer</think><tool_call>{"name":"send","arguments":{"recipient":"${special.host}","strings":["one"]}}</tool_call>`,
          ),
        request =>
          say(
            `<function=reply><parameter=messageNumber>${latestMessageNumber(request)}</parameter><parameter=strings>["two"]</parameter></function>`,
          ),
        say('<think>all done, and this stays private'),
      ],
    });
    await run.send('count');
    await run.reply('one');
    await run.reply('two');
    await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
    const transcript = JSON.stringify(run.provider.requests.at(-1)!.messages);
    expect(transcript).not.toMatch(/think|I should answer/);
    expect(run.provider.requests).toHaveLength(3);
  });

  test('a provider error is told to the sender and the next message is served', async () => {
    const run = await start({
      steps: [
        new ProviderError('server', 'the model server answered 500 five times'),
        say('pong 2'),
      ],
    });
    await run.send('ping 1');
    const told = await run.reply(
      /I stopped working on this: the model failed: the model server answered 500/,
    );
    expect(told.replyTo).toBeDefined();
    await run.send('ping 2');
    await run.reply('pong 2');
  });

  test('a request (not a package) is shown to the model as a request, answered, and the next message is served', async () => {
    const run = await start({ steps: [say('I cannot help with that request.'), say('pong')] });
    // A request the agent cannot satisfy, then an ordinary message.
    void E(run.host.host)
      .request(run.name, 'give me a unicorn', 'unicorn')
      .catch(() => {});
    const answer = await run.reply('I cannot help with that request.');
    expect(answer.replyTo).toBeDefined();
    await run.send('ping');
    await run.reply('pong');
    expect(run.provider.requests[0]!.messages.at(-1)!.content).toMatch(
      /request: "give me a unicorn"/,
    );
  });

  test('cancellation through the remote context stops the model call in flight and the mail loop', async () => {
    let aborted = false;
    const run = await start({
      steps: [
        (_request, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => {
              aborted = true;
              reject(new ProviderError('aborted', 'aborted'));
            });
          }),
      ],
    });
    await run.send('think forever');
    await expect.poll(() => run.provider.requests.length).toBe(1);
    expect(run.host.guest(run.name).followers()).toBe(1);
    await run.cancel();
    await expect.poll(() => aborted).toBe(true);
    await run.send('are you there?');
    // The agent ended its follow of the mail with the iterator's return() (the newest daemon's
    // reader lets go of its feed once the next message comes, as the daemon's pump does).
    await expect.poll(() => run.host.guest(run.name).followers()).toBe(0);
    expect(run.provider.requests).toHaveLength(1);
    expect(asMessages(run.host.guest(run.name).inbox()).map(textOf)).toContain('are you there?');
  });

  test('the auth token is never printed nor mailed', async () => {
    const token = 'sk-secret-token-1234567890';
    const run = await start({
      env: { LAL_AUTH_TOKEN: token, LAL_LOG: 'debug' },
      steps: [new ProviderError('auth', `401 from server for Bearer ${token}`)],
    });
    await run.send('ping');
    const told = await run.reply(/I stopped working on this/);
    expect(textOf(told)).not.toContain(token);
    expect(run.logs.join('\n')).not.toContain(token);
    expect(run.logs.length).toBeGreaterThan(0);
  });
});

describe.each(DAEMON_PROFILES)(
  'Lal tools (4) and configuration (1.1) on the %s daemon',
  profile => {
    const special = specialNamesOf(profile);
    const start = (options: Parameters<typeof startAgent>[0] = {}) => startOn(profile, options);
    test("the 19 Lal tools and Fae's two built-ins are offered, each once (as a tool, or as an op of names or mail)", async () => {
      const run = await start({ steps: [say('ok')] });
      await run.send('hi');
      await run.reply('ok');
      const { toolNames, tools } = run.provider.requests[0]!;
      const opsOf = (group: string) =>
        (tools.find(tool => tool.function.name === group)?.function.parameters.properties?.op
          ?.enum ?? []) as string[];
      const offered = [...toolNames, ...opsOf('names'), ...opsOf('mail')];
      const lal = [
        'help',
        'has',
        'list',
        'lookup',
        'remove',
        'move',
        'copy',
        'makeDirectory',
        'listMessages',
        'send',
        'reply',
        'adopt',
        'dismiss',
        'request',
        'resolve',
        'reject',
        'identify',
        'inspectCapability',
        'evaluate',
      ];
      for (const name of [...lal, 'store', 'adoptTool'])
        expect(offered.filter(each => each === name)).toHaveLength(1);
    });

    test('listMessages shows senders by pet name, texts, and no raw formula ids', async () => {
      const run = await start({
        steps: [callTool('listMessages', {}), request => say(request.messages.at(-1)!.content)],
      });
      await run.send('look at your inbox');
      const shown = await run.reply(/look at your inbox/);
      const list = JSON.parse(textOf(shown)) as {
        from: string;
        to: string;
        text: string;
        number: string;
      }[];
      const mine = list.find(message => message.text === 'look at your inbox')!;
      expect(mine.from).toBe(special.host);
      expect(mine.to).not.toMatch(/[0-9a-f]{128}/);
      expect(mine.number).toMatch(/^\+\d+$/);
    });

    test('makeDirectory refuses a name in use instead of emptying it; inspectCapability lists methods', async () => {
      const run = await start({
        steps: [
          callTool('makeDirectory', { petNamePath: 'notes' }),
          callTool('makeDirectory', { petNamePath: ['notes'] }),
          callTool('inspectCapability', { petNamePath: special.agent }),
          request =>
            say(
              request.messages
                .filter(message => message.role === 'tool')
                .map(message => message.content)
                .join('\n'),
            ),
        ],
      });
      await run.send('organise');
      const shown = textOf(await run.reply(/made/));
      const [made, refused, inspected] = shown.split('\n');
      expect(made).toContain('"made"');
      expect(refused).toMatch(/already exists; makeDirectory would replace it/);
      expect(inspected).toMatch(/"methods":\[.*"listMessages"/);
    });

    test('a configuration problem is told to HOST by mail, and make() does not throw', async () => {
      const run = await start({
        realProvider: true,
        env: { LAL_PROVIDER: 'anthropic', LAL_HOST: 'https://api.anthropic.com' },
      });
      expect(textOf(run.greeting!)).toMatch(
        /^Lal agent ready\. I cannot think yet: .*LAL_AUTH_TOKEN/,
      );
      await run.send('ping');
      const told = await run.reply(/^I cannot think: .*LAL_AUTH_TOKEN/);
      expect(told.replyTo).toBeDefined();
    });
  },
);

describe('a silent model (behaviour 3.1)', () => {
  test('a turn with neither a word nor a tool call gets one nudge; the sender gets an answer', async () => {
    const run = await startTracked({
      steps: [
        say(''),
        request =>
          say(
            request.messages.at(-1)!.content.includes('You ended without a word')
              ? 'Sorry, I cannot help with that.'
              : 'unexpected',
          ),
      ],
    });
    await run.send('do something odd');
    await run.reply('Sorry, I cannot help with that.');
    expect(run.provider.requests).toHaveLength(2);
  });

  test('a model that stays silent after the nudge ends the turn without looping', async () => {
    const run = await startTracked({ steps: [say(''), say(''), say('pong')] });
    await run.send('hello?');
    await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
    expect(run.provider.requests).toHaveLength(2);
    await run.send('ping');
    await run.reply('pong');
  });
});

describe('help (behaviour 1.1)', () => {
  test('help() documents the agent and says how it stands now', async () => {
    const run = await startTracked({
      persona: 'fae',
      env: { LAL_MAX_MODEL_CALLS: 'many' },
      steps: [],
    });
    const text = await run.help();
    expect(text).toMatch(/Methods: help/);
    expect(text).toMatch(/persona: fae/);
    expect(text).toMatch(/LAL_MAX_MODEL_CALLS must be a positive whole number/);
    expect(await run.help('help')).toMatch(/^help\(methodName\?\)/);
    expect(await run.help('nope')).toMatch(/No method named "nope"/);
  });
});
