/**
 * The agent's own words a person can act on (behaviour 7.3), through
 * make() and the daemon double: one period where a sentence ends, and
 * setting names in code spans (Endo's chat reads `_x_` as underline).
 */
import { describe, expect, test } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { codeSpans } from '../src/mail/code-spans.js';
import { textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** A loopback address where nothing listens. */
const closedPort = async (): Promise<string> => {
  const server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return `http://127.0.0.1:${port}`;
};

describe("the agent's own words (behaviour 7.3)", () => {
  test('a model server that is down: one period per sentence, and LAL_HOST in a code span', async () => {
    const run = await start({
      realProvider: true,
      env: { LAL_HOST: await closedPort(), LAL_MAX_RETRIES: '0' },
    });
    await run.send('ping');
    const told = textOf(
      await run.reply(/^I stopped working on this: the model failed: Cannot reach Ollama/),
    );
    expect(told).not.toMatch(/\.\./);
    expect(told).toContain('`LAL_HOST`');
    expect(told).not.toMatch(/[^`]LAL_HOST[^`]/);
    // Rephrasing cannot help a server that is down: what would is said (issue 45).
    expect(told).not.toMatch(/rephrase/);
    expect(told).toMatch(/Send it again once the model server answers/);
  });

  test('a model server that fails (HTTP 500): what would help, not a rephrasing (issue 45)', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('internal error');
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const run = await start({
        realProvider: true,
        env: {
          LAL_HOST: `http://127.0.0.1:${port}/v1`,
          LAL_PROVIDER: 'openai',
          LAL_MODEL: 'm',
          LAL_MAX_RETRIES: '0',
        },
      });
      await run.send('ping');
      const told = textOf(await run.reply(/^I stopped working on this: the model failed: /));
      expect(told).toMatch(/HTTP 500/);
      expect(told).not.toMatch(/rephrase/);
      expect(told).toMatch(/Send it again once the model server answers/);
    } finally {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
    }
  });

  test('a configuration problem in the greeting names the setting in a code span', async () => {
    const run = await start({
      realProvider: true,
      env: { LAL_PROVIDER: 'anthropic', LAL_HOST: 'https://api.anthropic.com' },
    });
    expect(textOf(run.greeting!)).toContain('`LAL_AUTH_TOKEN`');
  });

  test('codeSpans wraps identifiers with underscores once, and leaves other words and spans alone', () => {
    expect(codeSpans('Check LAL_AUTH_TOKEN and `LAL_HOST`; num_ctx too. Plain words stay.')).toBe(
      'Check `LAL_AUTH_TOKEN` and `LAL_HOST`; `num_ctx` too. Plain words stay.',
    );
  });
});
