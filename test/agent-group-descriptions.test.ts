/**
 * A grouped tool's description names the ops it offers and no others
 * (docs/prompt-size.md): the older daemon has no messageHistory, and
 * LAL_TOOLS_DENY takes ops away; the model is never told of an op its
 * `op` enum does not hold.
 */
import { describe, expect, test } from 'vitest';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import type { ToolSchema } from '../providers/types.js';
import { replyStep } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const groupOf = (tools: readonly ToolSchema[], name: string) => {
  const tool = tools.find(each => each.function.name === name);
  expect(tool, `${name} is offered`).toBeDefined();
  const ops = tool!.function.parameters.properties?.op?.enum as string[];
  return { description: tool!.function.description, ops };
};

/** Every op name of the full group that the description names (outside its parenthesised notes). */
const mentioned = (description: string, ops: readonly string[]) => {
  const named = description.replace(/\([^)]*\)/g, '');
  return ops.filter(op => new RegExp(`\\b${op}\\b`).test(named));
};

const ALL_MAIL = [
  'listMessages',
  'request',
  'dismiss',
  'adopt',
  'adoptTool',
  'resolve',
  'reject',
  'messageHistory',
  'recall',
  'helper',
];
const ALL_NAMES = [
  'list',
  'has',
  'lookup',
  'identify',
  'inspectCapability',
  'remove',
  'move',
  'copy',
  'makeDirectory',
  'store',
  'help',
];

describe.each(DAEMON_PROFILES)('on the %s daemon', profile => {
  test('mail and names describe exactly the ops their op enum offers', async () => {
    const run = await start({ profile, steps: [replyStep('pong')] });
    await run.send('ping');
    await run.reply('pong');
    const tools = run.provider.requests[0]!.tools;
    for (const [name, all] of [
      ['mail', ALL_MAIL],
      ['names', ALL_NAMES],
    ] as const) {
      const { description, ops } = groupOf(tools, name);
      expect(mentioned(description, all), name).toEqual(ops);
    }
  });

  test('ops LAL_TOOLS_DENY removed are gone from the descriptions too', async () => {
    const run = await start({
      profile,
      env: { LAL_TOOLS_DENY: 'reject, adoptTool, move, help' },
      steps: [replyStep('pong')],
    });
    await run.send('ping');
    await run.reply('pong');
    const tools = run.provider.requests[0]!.tools;
    for (const [name, all] of [
      ['mail', ALL_MAIL],
      ['names', ALL_NAMES],
    ] as const) {
      const { description, ops } = groupOf(tools, name);
      expect(mentioned(description, all), name).toEqual(ops);
    }
    const names = groupOf(tools, 'names').description;
    expect(names).toMatch(/\bcopy \(path to `to`\)/);
    expect(names).not.toMatch(/\bmove\b|on your powers/);
  });
});
