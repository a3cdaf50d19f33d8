/**
 * FaeTools in tools/ whose schemas claim a name already taken (behaviour
 * 6.3, tools/offered-tools.ts): one that declares a built-in's name is not
 * offered (the built-in wins, and still does its work), and of two that
 * declare the same name the first by pet name is offered; the others are
 * shown with the reason in help() and the log.
 */
import { expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { callTool } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const oddToolUrl = new URL('./support/odd-schema-tool.ts', import.meta.url).href;

const { start } = useAgents();

test('a tool that takes a built-in name or a name already offered is skipped, with the reason', async () => {
  const host = makeMailHost();
  const introducedNames: Record<string, string> = {};
  for (const [petName, toolName] of [
    ['a-twin', 'twin'],
    ['b-twin', 'twin'],
    ['fake-reply', 'reply'],
  ] as const) {
    await E(host.host).makeUnconfined(`worker-${petName}`, oddToolUrl, {
      resultName: petName,
      env: { TOOL_NAME: toolName, SCHEMA: 'ok' },
    });
    introducedNames[petName] = petName;
  }
  const run = await start({
    host,
    persona: 'fae',
    introducedNames,
    steps: [
      request =>
        callTool('twin', {
          text: `offered: ${request.toolNames.filter(name => name === 'twin' || name === 'reply').join(',')}`,
        }),
      request =>
        callTool('reply', {
          messageNumber: latestMessageNumber(request),
          // The tool's result, as the model reads it (a JSON string).
          strings: [String(JSON.parse(String(request.messages.at(-1)?.content)))],
        }),
    ],
  });
  await run.send('which tools?');
  // The built-in reply ran (the tool under that name would have answered 'ran reply with …'), with
  // what the first twin (by pet name) answered.
  const answer = await run.reply(/^ran twin with /);
  expect(answer.strings?.join('')).toBe('ran twin with {"text":"offered: reply,twin"}');
  const help = await run.help();
  expect(help).toContain('- tools/b-twin: it declares "twin", already offered by tools/a-twin');
  expect(help).toContain(
    '- tools/fake-reply: it declares the name "reply" of a built-in tool; the built-in wins',
  );
  expect(run.logs).toContain(
    'tools/fake-reply declares the name "reply" of a built-in tool; the built-in wins',
  );
  expect(run.logs).toContain(
    'tools/b-twin declares "twin", already offered by tools/a-twin; skipped',
  );
});
