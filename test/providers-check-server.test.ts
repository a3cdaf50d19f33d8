/**
 * The start-up check at the wire: real fetch against loopback servers that
 * answer as Ollama, as an OpenAI-compatible server, as a web page, or not at
 * all. Each wrong setting is named with the value that would be right, in
 * both directions (/v1 added or taken away), and a model the server does not
 * serve is refused with those it does (docs/behaviour.md 7.1).
 */
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { checkServer } from '../providers/check-server.js';
import { readProviderConfig } from '../providers/config.js';
import { connectProvider, describeModelChoice } from '../providers/connect-provider.js';
import { useRawServer, type RawHandler } from './support/raw-http-server.js';

const raw = useRawServer();

const json =
  (body: unknown): RawHandler =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

/** An Ollama: its native list at /api/tags, its OpenAI-compatible list at /v1/models. */
const ollama: RawHandler = (request, response) => {
  if (request.url === '/api/tags') json({ models: [{ name: 'qwen3:latest' }] })(request, response);
  else if (request.url === '/v1/models')
    json({ data: [{ id: 'qwen3:latest' }] })(request, response);
  else {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('404 page not found');
  }
};

/** llama.cpp-like: OpenAI-compatible under /v1 only. */
const openAiUnderV1: RawHandler = (request, response) => {
  if (request.url === '/v1/models')
    json({ data: [{ id: 'qwen3' }, { id: 'llama-3' }] })(request, response);
  else {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":"not found"}');
  }
};

const webPage: RawHandler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end('<!DOCTYPE html><html><body>Grafana</body></html>');
};

const check = (env: Record<string, string>) =>
  checkServer(readProviderConfig(env), { hostFromEnv: env.LAL_HOST !== undefined });

/** A loopback port nothing listens on. */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
};

describe('the start-up check names the setting to change', () => {
  it('Ollama addressed with /v1 and LAL_PROVIDER=ollama: take /v1 away (never /v1/v1)', async () => {
    const host = await raw.serve(ollama);
    const result = await check({ LAL_HOST: `${host}/v1`, LAL_PROVIDER: 'ollama' });
    expect(result.usable).toBe(false);
    expect(result.problem).toContain(`set LAL_HOST to ${host} `);
    expect(result.problem).not.toContain('/v1/v1');
  });

  it('an OpenAI-compatible server addressed without /v1: add it', async () => {
    const host = await raw.serve(openAiUnderV1);
    const result = await check({ LAL_HOST: host, LAL_PROVIDER: 'openai' });
    expect(result).toMatchObject({ usable: false });
    expect(result.problem).toContain(`set LAL_HOST to ${host}/v1`);
  });

  it('an OpenAI-compatible server taken for Ollama (no /v1, no LAL_PROVIDER): it says it is OpenAI-compatible', async () => {
    const host = await raw.serve(openAiUnderV1);
    const result = await check({ LAL_HOST: host });
    expect(result.usable).toBe(false);
    expect(result.problem).toMatch(/OpenAI-compatible server: set LAL_HOST to .*\/v1/);
  });

  it("Ollama's native address taken for OpenAI: LAL_PROVIDER=ollama", async () => {
    const host = await raw.serve((request, response) => {
      if (request.url === '/api/tags')
        json({ models: [{ name: 'qwen3:latest' }] })(request, response);
      else {
        response.writeHead(404);
        response.end();
      }
    });
    const result = await check({ LAL_HOST: `${host}/v1`, LAL_PROVIDER: 'openai' });
    expect(result.problem).toContain("Ollama's native API: set LAL_PROVIDER=ollama");
  });

  it('a web page is called one, not a JSON error', async () => {
    const host = await raw.serve(webPage);
    const result = await check({ LAL_HOST: `${host}/v1` });
    expect(result.usable).toBe(false);
    expect(result.problem).toBe(
      `${host}/v1 answered with a web page, not an OpenAI-compatible API — check LAL_HOST.`,
    );
  });

  it('a model the server does not list is refused, naming those it has (the nearest first)', async () => {
    const host = await raw.serve(openAiUnderV1);
    const result = await check({ LAL_HOST: `${host}/v1`, LAL_MODEL: 'llama-9' });
    expect(result).toEqual({
      models: ['qwen3', 'llama-3'],
      usable: false,
      problem: `${host}/v1 does not serve the model "llama-9" that LAL_MODEL names; it has llama-3, qwen3 — set LAL_MODEL to one of them.`,
    });
    // A name that kept .env's open quote is shown escaped, not as a doubled quote.
    expect((await check({ LAL_HOST: `${host}/v1`, LAL_MODEL: '"qwen3' })).problem).toContain(
      'does not serve the model "\\"qwen3" that LAL_MODEL names',
    );
    expect(await check({ LAL_HOST: `${host}/v1`, LAL_MODEL: 'qwen3' })).toEqual({
      models: ['qwen3', 'llama-3'],
      usable: true,
    });
  });

  it('nothing listening: check LAL_HOST when it was set, start Ollama when it was not', async () => {
    const port = await closedPort();
    const set = await check({ LAL_HOST: `http://127.0.0.1:${port}/v1` });
    expect(set.usable).toBe(false);
    expect(set.problem).toMatch(
      /^Nothing answers at http:\/\/127\.0\.0\.1:\d+\/v1 \(ECONNREFUSED\) — is the model server running there\? Check LAL_HOST\.$/,
    );
    const unset = await checkServer(readProviderConfig({ LAL_HOST: `http://127.0.0.1:${port}` }), {
      hostFromEnv: false,
    });
    expect(unset.problem).toContain('start Ollama, or set LAL_HOST');
  });
});

describe("the agent's greeting after the check", () => {
  it('does not offer other models as if LAL_MODEL were fine when the server lacks it', async () => {
    const host = await raw.serve(openAiUnderV1);
    const provider = await connectProvider({ LAL_HOST: `${host}/v1`, LAL_MODEL: 'gpt-9' });
    const words = describeModelChoice(provider);
    expect(words).toContain('does not serve the model "gpt-9"');
    expect(words).not.toContain('also offers');
  });
});

describe('the start-up check, for each kind of server and list', () => {
  /** An OpenAI-compatible server at its root (its list at /models), as some proxies are. */
  const openAiAtRoot: RawHandler = (request, response) => {
    if (request.url === '/models') json({ data: [{ id: 'qwen3' }] })(request, response);
    else {
      response.writeHead(404);
      response.end();
    }
  };
  /** Ollama's native API only. */
  const ollamaNative: RawHandler = (request, response) => {
    if (request.url === '/api/tags')
      json({ models: [{ name: 'qwen3:latest' }] })(request, response);
    else {
      response.writeHead(404);
      response.end();
    }
  };

  it('LAL_PROVIDER=ollama at an OpenAI-compatible server: set LAL_PROVIDER=openai', async () => {
    const host = await raw.serve(openAiAtRoot);
    const result = await check({ LAL_HOST: host, LAL_PROVIDER: 'ollama' });
    expect(result).toEqual({
      models: [],
      usable: false,
      problem: `${host} does not answer as Ollama's API: it is an OpenAI-compatible server: set LAL_PROVIDER=openai.`,
    });
  });

  it('LAL_PROVIDER=anthropic at Ollama or at an OpenAI-compatible server: the LAL_PROVIDER that speaks to it', async () => {
    const anthropic = { LAL_PROVIDER: 'anthropic', LAL_AUTH_TOKEN: 'test-key-not-real' };
    const ollamaHost = await raw.serve(ollamaNative);
    expect((await check({ ...anthropic, LAL_HOST: ollamaHost })).problem).toBe(
      `${ollamaHost} does not answer as Anthropic's API: it is Ollama's native API: set LAL_PROVIDER=ollama.`,
    );
    const openAiHost = await raw.serve(openAiAtRoot);
    expect((await check({ ...anthropic, LAL_HOST: openAiHost })).problem).toBe(
      `${openAiHost} does not answer as Anthropic's API: it is an OpenAI-compatible server: set LAL_PROVIDER=openai.`,
    );
  });

  it('a server that lists many models names twelve and how many more', async () => {
    const ids = Array.from({ length: 15 }, (_, index) => `model-${index + 1}`);
    const host = await raw.serve((request, response) =>
      json({ data: ids.map(id => ({ id })) })(request, response),
    );
    const result = await check({ LAL_HOST: `${host}/v1`, LAL_MODEL: 'model-77' });
    expect(result.usable).toBe(false);
    const named = /it has (.*) and (\d+) more — set LAL_MODEL/.exec(result.problem ?? '');
    expect(named?.[1]?.split(', ')).toHaveLength(12);
    expect(named?.[2]).toBe('3');
  });

  it('an OpenAI-compatible server that lists no models is not usable; only Ollama is told to pull', async () => {
    const host = await raw.serve((request, response) => json({ data: [] })(request, response));
    expect(await check({ LAL_HOST: `${host}/v1`, LAL_PROVIDER: 'openai' })).toEqual({
      models: [],
      usable: false,
      problem: `${host}/v1 lists no models.`,
    });
  });
});
