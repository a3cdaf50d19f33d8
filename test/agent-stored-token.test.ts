/**
 * The key as a value the HOST stored (docs/configuration.md, LAL_AUTH_TOKEN_ID):
 * read through the agent's powers when it starts, and from then on redacted
 * wherever text leaves the agent, as LAL_AUTH_TOKEN is (behaviour 1.4).
 */
import { E } from '@endo/far';
import { describe, expect, test } from 'vitest';
import { idFromLocator } from '../src/daemon/daemon-adapter.js';
import { callTool, say } from './support/scripted-provider.js';
import { replyStep, textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const KEY = 'sk-stored-key-7e1d0c9b8a-never-shown';

describe('LAL_AUTH_TOKEN_ID (newest daemon)', () => {
  test('the stored key is redacted from the log and the store once read, and given to the model back end', async () => {
    // Read by the harness once prepare has run: the id is known by then.
    const env: Record<string, string> = { LAL_LOG: 'steps' };
    const run = await start({
      profile: 'newest',
      env,
      prepare: async host => {
        await E(host.host).storeValue(KEY, 'my-key');
        env.LAL_AUTH_TOKEN_ID = idFromLocator(await E(host.host).identify('my-key')) ?? '';
      },
      steps: [
        // A model talked into repeating the key: the log and the kept history must not hold it.
        callTool('names', { op: 'lookup', petNamePath: [KEY] }),
        replyStep(`the key is ${KEY}`),
      ],
    });
    await run.send('what is the key?');
    const answer = await run.reply(/^the key is /);
    expect(run.logs.join('\n')).toContain('[redacted]');
    expect(run.logs.join('\n')).not.toContain(KEY);
    expect(textOf(answer)).toBe('the key is [redacted]');
    const memory = await E(run.host.guest(run.name).powers).lookup(['agent-state', 'memory']);
    expect(JSON.stringify(memory)).not.toContain(KEY);
    expect(run.providerEnvs.at(-1)?.LAL_AUTH_TOKEN).toBe(KEY);
  });

  test('an id that names no text: one log line, and the agent serves without a key', async () => {
    const run = await start({
      profile: 'newest',
      env: { LAL_AUTH_TOKEN_ID: '0123:4567' },
      steps: [replyStep('pong'), say('')],
    });
    await run.send('ping');
    await run.reply('pong');
    expect(
      run.logs.filter(line => line.startsWith('LAL_AUTH_TOKEN_ID names no value')),
    ).toHaveLength(1);
  });
});
