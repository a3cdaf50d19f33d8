/**
 * Helper agents (docs/behaviour.md 7.9), through make() in the daemon double
 * under lockdown: the model makes a helper with mail's helper op from a
 * subset of its powers; the helper works in the background with its own
 * context and exactly the tools it was given, and its result comes back as
 * work of its own, told to the model with its task and from there to
 * whoever asked. Asking for a power the agent does not hold, or one its
 * policy denies, is refused, named.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES, makeMailHost } from '../sim/mail-host/index.js';
import type { DaemonProfile } from '../sim/mail-host/index.js';
import type { ChatMessage } from '../providers/types.js';
import {
  callTool,
  makeScriptedProvider,
  type RecordedRequest,
  type ScriptedProvider,
  type Step,
} from './support/scripted-provider.js';
import {
  asMessages,
  latestMessageNumber,
  replyStep,
  textOf,
  type AgentRun,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

const { start } = useAgents();

const isHelpers = (request: RecordedRequest) =>
  request.messages[0]?.content.startsWith('You are a helper') === true;

/**
 * One model for the agent and its helpers, which run at once: each request
 * takes the next step of its own script (the agent's or the helpers').
 */
const routed = (agent: Step[], helpers: Step[]): Step[] => {
  const step = (): Step => (request, signal, onText) => {
    const next = (isHelpers(request) ? helpers : agent).shift();
    if (next === undefined)
      throw new Error(
        `no step left for ${isHelpers(request) ? 'a helper' : 'the agent'}: ${JSON.stringify(request.messages.map(m => m.content.slice(0, 80)))}`,
      );
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next(request, signal, onText) : next;
  };
  return Array.from({ length: agent.length + helpers.length }, step);
};

/** A reply to the message of the latest notice. */
const replyTo = (request: RecordedRequest, text: string) =>
  callTool('reply', { messageNumber: latestMessageNumber(request), strings: [text] });

const lastText = (request: RecordedRequest): string => request.messages.at(-1)!.content;

const toolResultsOf = (request: RecordedRequest): string[] =>
  request.messages
    .filter((message): message is Extract<ChatMessage, { role: 'tool' }> => message.role === 'tool')
    .map(message => message.content);

/** The error a tool result reports. */
const errorOf = (result: string | undefined): string =>
  (JSON.parse(result ?? '{}') as { error?: string }).error ?? '';

/** A Fae with the math tool in tools/ (as the HOST introduced it). */
const startFae = async (
  profile: DaemonProfile,
  steps: Step[],
  env: Record<string, string> = {},
  provider?: ScriptedProvider,
): Promise<AgentRun> => {
  const host = makeMailHost({ profile });
  await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
  return start({
    host,
    persona: 'fae',
    introducedNames: { 'math-tool': 'calculator' },
    env,
    steps,
    ...(provider === undefined ? {} : { provider }),
  });
};

describe.each(DAEMON_PROFILES)('helper agents on the %s daemon (behaviour 7.9)', profile => {
  test('a helper given only math works in the background; its result comes back with its task, and on to the HOST', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>(resolve => {
      release = resolve;
    });
    let helperRequest: RecordedRequest | undefined;
    let made = '';
    let notice = '';
    const agent: Step[] = [
      () => callTool('mail', { op: 'helper', description: 'What is 6 × 7?', grant: ['math'] }),
      request => {
        made = toolResultsOf(request).at(-1) ?? '';
        return replyTo(request, 'A helper is on it.');
      },
      // The helper's end: a turn of its own, about the HOST's message.
      request => {
        notice = lastText(request);
        return callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: ['6 × 7 = 42'],
        });
      },
    ];
    const helpers: Step[] = [
      async request => {
        helperRequest = request;
        // The helper answers only once the agent's turn has ended: the turn never waited for it.
        await released;
        return callTool('math', { operation: 'multiply', a: 6, b: 7 });
      },
      request => callTool('handBack', { result: `42 (${toolResultsOf(request).at(-1)})` }),
    ];
    const run = await startFae(profile, routed(agent, helpers));
    await run.send('What is 6 × 7? Ask a helper.');
    await run.reply('A helper is on it.');
    expect(JSON.parse(made)).toMatchObject({
      status: 'pending',
      helperId: 'h1',
      granted: ['math'],
    });
    release();
    await run.reply('6 × 7 = 42');
    // Its own context: its task and nothing of the agent's conversation; exactly math and handBack.
    expect(helperRequest!.toolNames.sort()).toEqual(['handBack', 'math']);
    expect(helperRequest!.messages.map(message => message.role)).toEqual(['system', 'user']);
    expect(lastText(helperRequest!)).toContain('What is 6 × 7?');
    expect(JSON.stringify(helperRequest!.messages)).not.toContain('Ask a helper');
    // Told with the task it answers, and whom to tell.
    expect(notice).toMatch(
      /^DONE: helper h1 \(task "What is 6 × 7\?", 2 model calls\) handed back: 42 \(\{"a":6,"b":7,"operation":"multiply","result":42\}\)/,
    );
    expect(notice).toMatch(/who asked in message #\d+/);
  });

  test("powers only narrow: a tool it does not hold, a mail tool, the agent's own store and a name it lacks are refused, named; nothing is made", async () => {
    let result = '';
    let ownStore = '';
    const run = await startFae(profile, [
      () =>
        callTool('mail', {
          op: 'helper',
          description: 'Do everything',
          grant: ['math', 'send', 'weather', 'nowhere/at-all'],
        }),
      request => {
        result = errorOf(toolResultsOf(request).at(-1));
        // The agent's own store is out of every call's reach (behaviour 9.6), a grant's too.
        return callTool('mail', { op: 'helper', description: 'Read', grant: ['agent-memory'] });
      },
      request => {
        ownStore = errorOf(toolResultsOf(request).at(-1));
        return replyTo(request, 'no helper');
      },
    ]);
    await run.send('Make a helper with everything.');
    await run.reply('no helper');
    expect(result).toContain('Not granted');
    expect(result).toContain('"send" (a helper mails no one');
    expect(result).toContain('"weather" (not a tool or pet name you hold)');
    expect(result).toContain('"nowhere/at-all" (not a tool or pet name you hold)');
    expect(ownStore).toMatch(/"agent-memory" is the agent's own store/);
    expect(result).not.toContain('"math"');
    expect(await run.help()).not.toMatch(/h1:/);
  });

  test('a tool the policy denies the agent is refused naming the policy', async () => {
    let result = '';
    const run = await startFae(
      profile,
      [
        () => callTool('mail', { op: 'helper', description: 'Multiply', grant: ['math'] }),
        request => {
          result = errorOf(toolResultsOf(request).at(-1));
          return replyTo(request, 'denied');
        },
      ],
      { LAL_TOOLS_DENY: 'math' },
    );
    await run.send('Multiply with a helper.');
    await run.reply('denied');
    expect(result).toContain('"math" (The tool "math" is not allowed here (LAL_TOOLS_DENY)');
  });

  test('a helper calling a tool it was not given gets an error, and its pet names are only those given', async () => {
    const seen: string[] = [];
    const agent: Step[] = [
      () => callTool('mail', { op: 'helper', description: 'Look around', grant: ['notes'] }),
      replyStep('Looking.'),
      request => {
        seen.push(lastText(request));
        return replyTo(request, 'done looking');
      },
    ];
    const helpers: Step[] = [
      request => {
        seen.push(request.toolNames.sort().join(','));
        return callTool('send', { recipient: 'HOST', strings: ['hello from the helper'] });
      },
      request => {
        seen.push(errorOf(toolResultsOf(request).at(-1)));
        return callTool('names', { op: 'list' });
      },
      request => {
        seen.push(toolResultsOf(request).at(-1) ?? '');
        return callTool('names', { op: 'lookup', path: 'secret' });
      },
      request => {
        seen.push(errorOf(toolResultsOf(request).at(-1)));
        return callTool('handBack', { result: 'seen' });
      },
    ];
    const run = await startFae(profile, routed(agent, helpers));
    const powers = run.host.guest('fae').powers;
    await E(powers).storeValue('a note', 'notes');
    await E(powers).storeValue('the vault code', 'secret');
    await run.send('Have a helper look at my notes.');
    await run.reply('Looking.');
    await run.reply('done looking');
    expect(seen[0]).toBe('handBack,names');
    expect(seen[1]).toContain('"send" is not one of this helper\'s tools');
    expect(JSON.parse(seen[2]!)).toEqual(['notes']);
    expect(seen[3]).toContain('"secret" is not among the pet names this helper was given (notes)');
    expect(seen[4]).toMatch(/^DONE: helper h1/);
    // Nothing reached the HOST from the helper.
    const inbox = asMessages(await E(run.host.host).listMessages());
    expect(inbox.some(message => textOf(message).includes('hello from the helper'))).toBe(false);
  });

  test("a helper may think with a cheaper model of the agent's chain; one it may not use is refused, named", async () => {
    let release: () => void = () => {};
    const released = new Promise<void>(resolve => {
      release = resolve;
    });
    let notice = '';
    let refused = '';
    const small = makeScriptedProvider([
      async () => {
        await released;
        return callTool('handBack', { result: 'the small model did it' });
      },
    ]);
    const agent = makeScriptedProvider([
      () =>
        callTool('mail', { op: 'helper', description: 'Say hello', grant: ['model small-model'] }),
      request => replyTo(request, 'A small helper is on it.'),
      request => {
        notice = lastText(request);
        return replyTo(request, 'small done');
      },
      () =>
        callTool('mail', { op: 'helper', description: 'Say hello', grant: ['model huge-model'] }),
      request => {
        refused = errorOf(toolResultsOf(request).at(-1));
        return replyTo(request, 'no huge model');
      },
    ]);
    // The agent's model is the first server of a chain whose second serves small-model.
    Object.assign(agent, {
      chain: [
        { kind: 'scripted', model: 'scripted-model', host: 'first' },
        { kind: 'scripted', model: 'small-model', host: 'second' },
      ],
      only: (model: string) => (model === 'small-model' ? small : undefined),
    });
    const run = await startFae(profile, [], {}, agent);
    await run.send('Say hello with a small helper.');
    await run.reply('A small helper is on it.');
    release();
    await run.reply('small done');
    expect(notice).toMatch(
      /^DONE: helper h1 \(task "Say hello", 1 model call\) handed back: the small model did it/,
    );
    // The helper's request went to the small model; none of the agent's did.
    expect(small.requests).toHaveLength(1);
    expect(agent.requests.some(isHelpers)).toBe(false);
    await run.send('Say hello with a huge helper.');
    await run.reply('no huge model');
    expect(refused).toBe(
      'helper: model "huge-model" is not one this agent may use (scripted-model, small-model)',
    );
  });
});
