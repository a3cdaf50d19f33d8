/**
 * Fae's dynamic tools (behaviour 6): adopted from mail, moved in when introduced,
 * kept across a restart, discovered concurrently and cached by identity.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;
const namedToolUrl = new URL('../bench/bench-tool.ts', import.meta.url).href;

const { start } = useAgents();

const count = (names: string[], name: string) => names.filter(each => each === name).length;

describe('Fae tools (behaviour 6)', () => {
  test('a tool mailed by the host is adopted, called by its schema name, and its answer reaches the host', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
    let toolMessage = -1;
    let firstOffered: string[] | undefined;
    const run = await start({
      host,
      persona: 'fae',
      steps: [
        request => {
          toolMessage = latestMessageNumber(request);
          firstOffered = request.toolNames;
          return callTool('adoptTool', {
            messageNumber: toolMessage,
            edgeName: 'calc',
            toolName: 'calculator',
          });
        },
        request => {
          expect(count(request.toolNames, 'math')).toBe(1);
          return callTool('math', { operation: 'multiply', a: 6, b: 7 });
        },
        request => {
          const result = JSON.parse(request.messages.at(-1)!.content) as { result: number };
          return callTool('reply', {
            messageNumber: toolMessage,
            strings: [String(result.result)],
          });
        },
        say(''),
      ],
    });
    await E(host.host).send('fae', ['here is a calculator ', ''], ['calc'], ['math-tool']);
    await run.reply('42');
    // Before adoption the tool was not offered; after it, it was (checked in the second step).
    expect(firstOffered).toBeDefined();
    expect(count(firstOffered!, 'math')).toBe(0);
    expect(await E(host.guest('fae').powers).has('tools', 'calculator')).toBe(true);
    // The adopted tool lives in the guest's store: a restarted agent still has it.
    await run.restart([request => say(`math offered ${count(request.toolNames, 'math')} time(s)`)]);
    await run.send('after the restart?');
    await run.reply('math offered 1 time(s)');
  });

  test('introduced tools move into tools/ and are offered; an adopted tool survives a restart', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'math-tool': 'calculator' },
      steps: [
        request =>
          say(`I have ${request.toolNames.filter(name => name === 'math').length} math tool`),
      ],
    });
    await run.send('what tools?');
    await run.reply('I have 1 math tool');
    const powers = host.guest('fae').powers;
    expect(await E(powers).has('calculator')).toBe(false);
    expect(await E(powers).list('tools')).toContain('calculator');

    await run.restart([request => say(`after restart: ${request.toolNames.includes('math')}`)]);
    await run.send('still there?');
    await run.reply('after restart: true');
  });

  test('50 tools are all offered, and an unchanged directory is not looked up again', async () => {
    const host = makeMailHost();
    const introducedNames: Record<string, string> = {};
    for (let index = 0; index < 50; index += 1) {
      await E(host.host).makeUnconfined(`worker-t${index}`, namedToolUrl, {
        resultName: `tool-${index}`,
        env: { TOOL_NAME: `t${index}` },
      });
      introducedNames[`tool-${index}`] = `tool-${index}`;
    }
    const run = await start({
      host,
      persona: 'fae',
      introducedNames,
      // A budget they all fit in: past the default one they would wait behind the toolbox
      // (agent-toolbox.test.ts); here what is measured is their discovery.
      env: { LAL_TOOL_BUDGET_TOKENS: '100000' },
      steps: [say('first'), say('second')],
    });
    await run.send('one');
    await run.reply('first');
    const offered = run.provider.requests[0]!.toolNames.filter(name => /^t\d+$/.test(name));
    expect(new Set(offered).size).toBe(50);
    expect(offered).toHaveLength(50);
    host.resetCallCounts('fae');
    await run.send('two');
    await run.reply('second');
    const warm = host.callCounts('fae');
    // An unchanged, followed directory costs no round trip: no ids, no names, no look-ups.
    expect(warm.lookup ?? 0).toBe(0);
    expect(warm.identify ?? 0).toBe(0);
    expect(warm.list ?? 0).toBe(0);
    expect(warm.listIdentifiers ?? 0).toBe(0);
    expect(run.provider.requests[1]!.toolNames.filter(name => /^t\d+$/.test(name))).toHaveLength(
      50,
    );
  });
});
