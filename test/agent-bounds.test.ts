/**
 * Hardening (behaviour 3.5–3.8, 2.5): bounds end runaway turns and the sender is
 * told; results are capped; the prompt stays within budget over a long
 * conversation; memory survives a restart without answering twice.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say, type Step } from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  replyStep,
  textOf,
  waitForMessage,
  type Message,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const namedToolUrl = new URL('./support/misbehaving-tool.ts', import.meta.url).href;

const { start } = useAgents();

const withTool = async (mode: string) => {
  const host = makeMailHost();
  await E(host.host).makeUnconfined('worker-tool', namedToolUrl, {
    resultName: 'odd-tool',
    env: { TOOL_NAME: 'odd', MODE: mode },
  });
  return host;
};

describe('bounds (behaviour 3.5)', () => {
  test('a model that repeats the same call forever is stopped, the sender is told, the next message is served', async () => {
    const forever: Step[] = Array.from({ length: 7 }, () => callTool('list', {}));
    const run = await start({ steps: forever });
    await run.send('loop please');
    const told = await run.reply(
      /I stopped working on this: the model repeated the same list call 7 times/,
    );
    expect(told.replyTo).toBeDefined();
    // Warned at 3, refused from 5.
    const results = run.provider.requests
      .at(-1)!
      .messages.filter(message => message.role === 'tool')
      .map(message => message.content);
    expect(results[2]).toMatch(/warning: you made this exact call 3 times/);
    expect(results[4]).toMatch(/refused/);
    expect(run.provider.requests).toHaveLength(7);
    run.provider.push(say('pong'));
    await run.send('ping');
    await run.reply('pong');
  });

  test('the model-call cap ends a turn and says so', async () => {
    const varied: Step[] = Array.from({ length: 10 }, (_, index) =>
      callTool('has', { petNamePath: [`thing-${index}`] }),
    );
    const run = await start({ env: { LAL_MAX_MODEL_CALLS: '4' }, steps: varied });
    await run.send('wander');
    await run.reply(/I stopped working on this: the turn used its 4 model calls/);
    expect(run.provider.requests).toHaveLength(4);
  });

  test('a tool that never settles times out and the model sees the timeout', async () => {
    const host = await withTool('hang');
    const run = await start({
      host,
      persona: 'fae',
      env: { LAL_TOOL_TIMEOUT_MS: '200' },
      introducedNames: { 'odd-tool': 'odd-tool' },
      steps: [callTool('odd', {}), request => say(`saw: ${request.messages.at(-1)!.content}`)],
    });
    await run.send('use the tool');
    const told = await run.reply(/^saw:/);
    expect(textOf(told)).toMatch(/timed out after 200 ms/);
  });

  test('a 2 MB result reaches the model capped, with its original size', async () => {
    const host = await withTool('flood');
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'odd-tool': 'odd-tool' },
      steps: [callTool('odd', {}), say('ok')],
    });
    await run.send('flood me');
    await run.reply('ok');
    const result = run.provider.requests[1]!.messages.at(-1)!.content;
    expect(result.length).toBeLessThan(17_000);
    expect(result).toMatch(/the result was 2000002 characters/);
  });
});

describe('context budget and memory (behaviour 3.7, 3.8, 2.5)', () => {
  test('200 exchanges stay within the budget and the first fact stays in the prompt', async () => {
    const budget = 8_000;
    const steps: Step[] = [];
    for (let index = 0; index < 200; index += 1)
      steps.push(replyStep(index === 0 ? 'Nice to meet you, Ada' : 'pong'));
    const run = await start({ env: { LAL_CONTEXT_TOKENS: String(budget) }, steps });
    await run.send('My name is Ada and my favourite number is 7.');
    await run.reply('Nice to meet you, Ada');
    for (let index = 1; index < 200; index += 1) {
      await run.send(`ping ${index}`);
      await run.reply('pong');
    }
    const sizes = run.events.flatMap(event => (event.kind === 'model-call' ? [event] : []));
    const largest = Math.max(...sizes.map(event => event.estimatedTokens));
    const largestChars = Math.max(...sizes.map(event => event.chars));
    // The sizes are said when it fails, not printed in every run (issue 45: a quiet `npm test`).
    expect(
      largest,
      `largest request: ~${largest} tokens, ${largestChars} characters (budget ${budget} tokens); first: ${sizes[0]!.chars}, last: ${sizes.at(-1)!.chars} characters`,
    ).toBeLessThanOrEqual(budget);
    // The digest follows the unchanging system prompt, in a user message of its own.
    const [system, digest] = run.provider.requests.at(-1)!.messages;
    expect(system!.content).not.toContain('Ada');
    expect(digest!.content).toContain('My name is Ada and my favourite number is 7.');
  });

  test('after a restart nothing is answered twice and the conversation goes on', async () => {
    const run = await start({ steps: [replyStep('noted: blue'), say('')] });
    await run.send('Remember that my colour is blue.');
    await run.reply('noted: blue');
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
    // The memory is written after the answer (docs/benchmark.md, round 11): a restart before the
    // write would lose the turn, as in the daemon, so the restart waits for it.
    await expect
      .poll(async () =>
        String(await E(run.host.guest(run.name).powers).lookup(['agent-state', 'memory'])),
      )
      .toContain('my colour is blue');
    // A message the agent never got to before the restart.
    await run.restart([
      request => {
        const transcript = JSON.stringify(request.messages);
        return callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: [transcript.includes('my colour is blue') ? 'your colour is blue' : 'I forgot'],
        });
      },
      say(''),
    ]);
    await run.send('What is my colour?');
    await run.reply('your colour is blue');
    // The replayed message came first in the mail, so by now it was passed over (or answered twice).
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(2);
    const answers = asMessages(await E(run.host.host).listMessages());
    expect(answers.filter(message => textOf(message) === 'noted: blue')).toHaveLength(1);
    expect(run.provider.requests).toHaveLength(1);
  });
});

describe('restart with mail still in the inbox (behaviour 2.5)', () => {
  test('a handled message the daemon replays after a restart is not answered again', async () => {
    const run = await start({
      steps: [
        callTool('request', { recipient: 'HOST', description: 'a colour', responseName: 'colour' }),
        say(''),
      ],
    });
    await run.send('ask me for a colour');
    await waitForMessage(run.host, (message: Message) => message.type === 'request');
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
    // The message stays in the inbox while its request is open, so the daemon replays it.
    const inbox = asMessages(await E(run.host.guest(run.name).powers).listMessages());
    expect(
      inbox.some(
        message => message.type === 'package' && textOf(message) === 'ask me for a colour',
      ),
    ).toBe(true);
    await run.restart([
      request =>
        callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: ['fresh answer'],
        }),
    ]);
    await run.send('hello again');
    await run.reply('fresh answer');
    // One model call after the restart: for the new message only.
    expect(run.provider.requests).toHaveLength(1);
    expect(run.provider.requests[0]!.messages.at(-1)!.content).toContain('hello again');
    expect(JSON.stringify(run.provider.requests[0]!.messages)).toContain('ask me for a colour');
  });
});
