/**
 * A misbehaving FaeTool never takes Fae down (behaviour 6.3): a schema
 * that is not plain JSON, that throws, that never answers or that floods is
 * refused within a bound; the other tools are still offered; the reason is
 * logged and shown by help(); a refused tool is tried again when its
 * identity changes; a sender whose mailed tool is refused is told why.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say } from './support/scripted-provider.js';
import { latestMessageNumber, textOf, waitForMessage } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const oddToolUrl = new URL('./support/odd-schema-tool.ts', import.meta.url).href;
const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

const { start } = useAgents();

const offeredOf = (names: readonly string[]) =>
  names
    .filter(name => name === 'math' || name.startsWith('odd'))
    .sort()
    .join(',');

/** A mail host whose HOST holds math and one odd tool per schema mode, each introduced to the agent. */
const hostWith = async (modes: readonly string[]) => {
  const host = makeMailHost();
  await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
  const introducedNames: Record<string, string> = { 'math-tool': 'math-tool' };
  for (const mode of modes) {
    await E(host.host).makeUnconfined(`worker-${mode}`, oddToolUrl, {
      resultName: `odd-${mode}`,
      env: { TOOL_NAME: `odd_${mode.replace(/-/g, '_')}`, SCHEMA: mode },
    });
    introducedNames[`odd-${mode}`] = `odd-${mode}`;
  }
  return { host, introducedNames };
};

describe('a misbehaving FaeTool never takes Fae down', () => {
  test('a schema holding a bigint is refused; the agent still answers, offers the others and says why in help()', async () => {
    const { host, introducedNames } = await hostWith(['bigint']);
    const run = await start({
      host,
      persona: 'fae',
      introducedNames,
      steps: [
        request => say(`offered: ${offeredOf(request.toolNames)}`),
        request => say(`again: ${offeredOf(request.toolNames)}`),
      ],
    });
    await run.send('what tools?');
    await run.reply('offered: math');
    await run.send('and now?');
    await run.reply('again: math');
    const help = await run.help();
    expect(help).toMatch(
      /Tools refused:\n- tools\/odd-bigint: its schema is not plain JSON \(a bigint at function\.parameters\.properties\.n\.maximum\)/,
    );
    expect(run.logs.join('\n')).toMatch(/tools\/odd-bigint refused: its schema is not plain JSON/);
  });

  test('schemas that throw, never answer or flood are refused within the bound, side by side', async () => {
    const { host, introducedNames } = await hostWith(['throws', 'hang', 'huge', 'ok']);
    const run = await start({
      host,
      persona: 'fae',
      introducedNames,
      env: { LAL_TOOL_LOOKUP_TIMEOUT_MS: '300' },
      steps: [request => say(`offered: ${offeredOf(request.toolNames)}`)],
    });
    await run.send('what tools?');
    await run.reply('offered: math,odd_ok');
    const help = await run.help();
    expect(help).toMatch(/tools\/odd-throws: its schema\(\) failed: schema exploded/);
    expect(help).toMatch(/tools\/odd-hang: its schema\(\) did not answer within 300 ms/);
    expect(help).toMatch(/tools\/odd-huge: its schema is \d+ characters, more than 32000/);
    // Not refused (it is listed among the tools offered, never among those refused).
    expect(help).not.toMatch(/tools\/odd-ok:/);
  });

  test('a refused tool is tried again when its identity changes', async () => {
    const { host, introducedNames } = await hostWith(['bigint']);
    await E(host.host).makeUnconfined('worker-fixed', oddToolUrl, {
      resultName: 'fixed',
      env: { TOOL_NAME: 'odd_fixed', SCHEMA: 'ok' },
    });
    const run = await start({
      host,
      persona: 'fae',
      introducedNames,
      steps: [
        request => say(`offered: ${offeredOf(request.toolNames)}`),
        request => say(`then: ${offeredOf(request.toolNames)}`),
      ],
    });
    await run.send('what tools?');
    await run.reply('offered: math');
    // The host replaces the value under tools/odd-bigint with a good tool.
    await E(host.host).send('fae', ['a fix ', ''], ['fix'], ['fixed']);
    const powers = host.guest('fae').powers;
    const fixMessage = await waitForMessage(
      host,
      message => message.type === 'package' && textOf(message) === 'a fix ',
      { who: 'fae' },
    );
    await E(powers).adopt(fixMessage.number, 'fix', ['tools', 'odd-bigint']);
    await run.send('and now?');
    await run.reply('then: math,odd_fixed');
    expect(await run.help()).not.toMatch(/tools\/odd-bigint:/);
  });

  test('a tool mailed with adoptTool and refused is not adopted, and its sender is told why', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-bad', oddToolUrl, {
      resultName: 'bad-tool',
      env: { TOOL_NAME: 'odd_bad', SCHEMA: 'bigint' },
    });
    let toolMessage = -1;
    const run = await start({
      host,
      persona: 'fae',
      env: { LAL_STOP_AFTER_ANSWER: '0' },
      steps: [
        request => {
          toolMessage = latestMessageNumber(request);
          return callTool('adoptTool', {
            messageNumber: toolMessage,
            edgeName: 'tool',
            toolName: 'bad',
          });
        },
        request => say(`model saw: ${request.messages.at(-1)!.content}`),
      ],
    });
    await E(host.host).send('fae', ['please use this tool ', ''], ['tool'], ['bad-tool']);
    const told = await run.reply(/^I did not adopt "tool" as a tool/);
    expect(textOf(told)).toMatch(
      /its schema is not plain JSON \(a bigint at function\.parameters\.properties\.n\.maximum\)/,
    );
    expect(told.replyTo).toBeDefined();
    const seen = await run.reply(/^model saw:/);
    expect(textOf(seen)).toMatch(/not adopted: .*bigint.*the sender was told/);
    expect(await E(host.guest('fae').powers).has('tools', 'bad')).toBe(false);
  });

  // docs/daemon-guide.md, "Tools for Fae": `endo send fae "here is a calculator @calc:math-tool"` to
  // a Fae that has math-tool. `calc` names the same formula as math-tool, so tools/'s identifiers
  // (the daemon lists each once) read the same with calc and after its removal.
  test('a mailed second name for a tool Fae has is refused, and the tools offered are as before', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
    let toolMessage = -1;
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'math-tool': 'math-tool' },
      env: { LAL_STOP_AFTER_ANSWER: '0' },
      steps: [
        request => {
          toolMessage = latestMessageNumber(request);
          return callTool('adoptTool', {
            messageNumber: toolMessage,
            edgeName: 'calc',
            toolName: 'calc',
          });
        },
        say('not adopted'),
        say('pong'),
      ],
    });
    await E(host.host).send('fae', ['here is a calculator ', ''], ['calc'], ['math-tool']);
    const told = await run.reply(/^I did not adopt "calc" as a tool/);
    expect(textOf(told)).toMatch(/a name tools\/math-tool already answers to/);
    await run.reply('not adopted');
    expect(await E(host.guest('fae').powers).list('tools')).toEqual(['math-tool']);
    const logsBefore = run.logs.length;
    await run.send('ping');
    await run.reply('pong');
    const tools = await run.tools();
    expect(tools).toMatch(/tools\/math-tool\b.*: math/);
    expect(tools).not.toMatch(/tools\/calc/);
    // While calc was there it took math's name (c before m); once gone, math-tool is not skipped.
    expect(run.logs.slice(logsBefore).join('\n')).not.toMatch(/already offered by tools\/calc/);
  });
});

// Cycles and functions cannot cross CapTP (the tool's side fails, which the test above covers as a throw);
// a tool in the agent's own vat could still hand them over, so the check itself refuses them.
describe('checkToolSchema', () => {
  test('refuses cycles, functions and remote objects, and says where', async () => {
    const { checkToolSchema } = await import('../src/agent-tools/check-tool-schema.js');
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const schema = (parameters: unknown) => ({
      type: 'function',
      function: { name: 'x', description: 'd', parameters },
    });
    expect(checkToolSchema(schema(cyclic))).toEqual({
      ok: false,
      reason: 'its schema is not plain JSON (a cycle at function.parameters.properties.self)',
    });
    expect(checkToolSchema(schema({ type: 'object', default: () => 1 }))).toEqual({
      ok: false,
      reason: 'its schema is not plain JSON (a function at function.parameters.default)',
    });
    expect(checkToolSchema(schema({ type: 'object', n: Number.NaN }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/non-finite number at function\.parameters\.n/),
    });
    expect(checkToolSchema({ type: 'function', function: { name: 'functions.x' } })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a valid tool name/),
    });
    expect(
      checkToolSchema(schema({ type: 'object', properties: {}, extra: undefined })),
    ).toMatchObject({ ok: true });
  });
});
