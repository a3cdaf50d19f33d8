/**
 * On the newest daemon the agent asks its host before code runs (a request,
 * docs/daemon-api.md). Endo's chat UI shows a request's description through
 * JSON.stringify, so code put there reads as one line full of `\n` and `\"`
 * (issue 23, defect 7). The host must be able to read what it approves: the
 * request is one short line, and the code comes just before it in a message
 * the chat renders as Markdown, in a code block, with its endowments.
 */
import { expect, test } from 'vitest';
import { E, Far } from '@endo/far';
import { chatView, makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say } from './support/scripted-provider.js';
import { waitForMessage, type Message } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const SOURCE = [
  'const greeting = "hello\\tworld";',
  'const parts = greeting.split("\\t");',
  'E(probe).bump(parts.length);',
].join('\n');

test('the host reads the code it is asked to approve as code, and the request as one line', async () => {
  const host = makeMailHost({ profile: 'newest' });
  await E(host.host).storeValue(Far('Probe', { bump: (n: number) => n }), 'probe');
  const run = await start({
    host,
    introducedNames: { probe: 'probe' },
    steps: [
      callTool('evaluate', {
        source: SOURCE,
        codeNames: ['probe'],
        petNamePaths: ['probe'],
        resultName: 'bumped',
      }),
      say('asked'),
    ],
  });
  await run.send('bump the probe');
  const asked = await waitForMessage(host, message => message.type === 'request');
  const inbox = (await E(host.host).listMessages()) as unknown as Message[];
  const code = inbox
    .filter(message => message.type === 'package' && message.number < asked.number)
    .at(-1)!;
  const shown = chatView(code as never);
  // The code, as written, in a fenced block the chat renders, with what it is given.
  expect(shown).toContain(`\`\`\`js\n${SOURCE}\n\`\`\``);
  expect(shown).toContain('probe <- probe');
  expect(shown).toContain('bumped');
  // The request, as the chat shows it: one short line, nothing escaped.
  const line = chatView(asked as never);
  expect(line).not.toMatch(/\\[n"t\\]/);
  expect(line.length).toBeLessThanOrEqual(240);
  expect(line).toMatch(/run the code/);
});
