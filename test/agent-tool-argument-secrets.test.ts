/**
 * A secret the model writes into a tool call's arguments never leaves the
 * agent through the tool: not in a request to the HOST, not in the HOST's
 * approval request for a gated call, not in a value stored in the guest's
 * directory (and so not in a FaeTool's or runCommand's child process, which
 * get their arguments the same way). Under lockdown, through make() and E().
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say, type Step } from './support/scripted-provider.js';
import { waitForMessage, type Message } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const agents = useAgents();

const TOKEN = 'sk-tool-args-"quoted\\secret-42';

const start = (env: Record<string, string>, steps: Step[]) =>
  agents.start({ env: { LAL_AUTH_TOKEN: TOKEN, ...env }, steps });

describe('secrets in tool arguments', () => {
  test('a request the model sends the HOST has the token redacted, even where JSON escapes it', async () => {
    const run = await start({}, [
      callTool('request', { recipient: 'HOST', description: `use the key ${TOKEN} please` }),
      say(''),
    ]);
    await run.send('ask the host');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    expect(String(asked.description)).toBe('use the key [redacted] please');
  });

  test('an approval request for a gated call has the token redacted, and the store never holds it', async () => {
    const run = await start({ LAL_TOOLS_APPROVE: 'store', LAL_TRUSTED_SENDERS: 'nobody' }, [
      callTool('store', { value: `key=${TOKEN}`, petName: ['kept'] }),
      say(''),
    ]);
    await run.send('keep the key');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    const description = String(asked.description);
    expect(description).toMatch(/^While serving message #\d+ from HOST, Lal asks to call store /);
    expect(description).toContain('[redacted]');
    expect(description).not.toContain('quoted');
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked.number, 'yes');
    const powers = run.host.guest(run.name).powers;
    await expect.poll(() => E(powers).has('kept')).toBe(true);
    expect(await E(powers).lookup('kept')).toBe('key=[redacted]');
  });
});
