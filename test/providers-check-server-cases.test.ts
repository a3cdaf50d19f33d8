/**
 * The start-up check (providers/check-server.ts) against loopback servers
 * answering each path as the test says, for the cases the wire doubles do
 * not reach: the model named the way the server lists it or not (Ollama's
 * `:latest`, Anthropic's dated ids), credentials refused, a server that
 * lists nothing or only embedding models, an endpoint's path in LAL_HOST for
 * each API, a list of another API's shape, and each direction of the advice
 * that names the API that answers (docs/behaviour.md 7.1).
 */
import { describe, expect, it } from 'vitest';
import { checkServer } from '../providers/check-server.js';
import { readProviderConfig } from '../providers/config.js';
import { useModelServers } from './support/model-servers.js';
import { useRawServer } from './support/raw-http-server.js';

const raw = useRawServer();
const startServer = useModelServers();

type Answer = { status?: number; type?: string; body: string };

/** A server answering each path of `routes` (404 elsewhere); says which paths were asked. */
const serve = async (routes: Record<string, unknown>) => {
  const asked: string[] = [];
  const host = await raw.serve((request, response) => {
    const url = request.url ?? '';
    asked.push(url);
    const route = routes[url] as Answer | object | undefined;
    if (route === undefined) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"not found"}');
      return;
    }
    const answer: Answer = 'body' in route ? route : { body: JSON.stringify(route) };
    response.writeHead(answer.status ?? 200, {
      'content-type': answer.type ?? 'application/json',
    });
    response.end(answer.body);
  });
  return { host, asked };
};

const check = (env: Record<string, string>) =>
  checkServer(readProviderConfig(env), { hostFromEnv: true });

const ollamaList = (...names: string[]) => ({ models: names.map(name => ({ name })) });
const openAiList = (...ids: string[]) => ({ object: 'list', data: ids.map(id => ({ id })) });
const anthropicList = (...ids: string[]) => ({ data: ids.map(id => ({ id })), has_more: false });
const ANTHROPIC = { LAL_PROVIDER: 'anthropic', LAL_AUTH_TOKEN: 'test-key-not-real' };

describe('the model LAL_MODEL names, as the server lists it', () => {
  it('qwen3 is the qwen3:latest Ollama lists, and qwen3:latest the qwen3 a server lists', async () => {
    const { host } = await serve({ '/api/tags': ollamaList('qwen3:latest', 'llama3.2:1b') });
    expect(await check({ LAL_HOST: host, LAL_MODEL: 'qwen3' })).toEqual({
      models: ['qwen3:latest', 'llama3.2:1b'],
      usable: true,
    });
    const openAi = await serve({ '/v1/models': openAiList('qwen3') });
    expect(await check({ LAL_HOST: `${openAi.host}/v1`, LAL_MODEL: 'qwen3:latest' })).toMatchObject(
      { usable: true },
    );
  });

  it('another tag is another model: Ollama is told to pull it', async () => {
    const { host } = await serve({ '/api/tags': ollamaList('qwen3:latest') });
    expect(await check({ LAL_HOST: host, LAL_MODEL: 'qwen3:8b' })).toEqual({
      models: ['qwen3:latest'],
      usable: false,
      problem: `${host} does not serve the model "qwen3:8b" that LAL_MODEL names; it has qwen3:latest — run \`ollama pull qwen3:8b\` or set LAL_MODEL to it.`,
    });
  });

  it("Anthropic's dated ids are the model they date; a dated id is no match elsewhere", async () => {
    const { host } = await serve({ '/v1/models': anthropicList('claude-sonnet-4-20250514') });
    expect(
      await check({ ...ANTHROPIC, LAL_HOST: host, LAL_MODEL: 'claude-sonnet-4' }),
    ).toMatchObject({ usable: true });
    expect(await check({ ...ANTHROPIC, LAL_HOST: host, LAL_MODEL: 'claude-opus-4' })).toMatchObject(
      { usable: false },
    );
    const openAi = await serve({ '/v1/models': openAiList('claude-sonnet-4-20250514') });
    expect(
      await check({ LAL_HOST: `${openAi.host}/v1`, LAL_MODEL: 'claude-sonnet-4' }),
    ).toMatchObject({ usable: false });
  });
});

describe('what the server lists', () => {
  it('only embedding models, no LAL_MODEL: Ollama is told to pull a chat model', async () => {
    const { host } = await serve({ '/api/tags': ollamaList('nomic-embed-text:latest') });
    const config = readProviderConfig({ LAL_HOST: host });
    expect(await check({ LAL_HOST: host })).toEqual({
      models: ['nomic-embed-text:latest'],
      usable: false,
      problem: `${host} lists only embedding models (nomic-embed-text:latest), none to chat with — run \`ollama pull ${config.model}\` or set LAL_MODEL to a chat model the server has.`,
    });
  });

  it('only embedding models, but LAL_MODEL names one it lists: usable as told', async () => {
    const { host } = await serve({ '/api/tags': ollamaList('nomic-embed-text:latest') });
    expect(await check({ LAL_HOST: host, LAL_MODEL: 'nomic-embed-text' })).toMatchObject({
      usable: true,
    });
  });

  it('a chat model among embedding ones: usable', async () => {
    const { host } = await serve({ '/api/tags': ollamaList('bge-m3', 'qwen3:latest') });
    expect(await check({ LAL_HOST: host })).toEqual({
      models: ['bge-m3', 'qwen3:latest'],
      usable: true,
    });
  });

  it('nothing, on Ollama: told what to pull', async () => {
    const { host } = await serve({ '/api/tags': ollamaList() });
    const config = readProviderConfig({ LAL_HOST: host, LAL_MODEL: 'qwen3' });
    expect(config.model).toBe('qwen3');
    expect(await check({ LAL_HOST: host, LAL_MODEL: 'qwen3' })).toEqual({
      models: [],
      usable: false,
      problem: `${host} lists no models — run \`ollama pull qwen3\`.`,
    });
  });

  it('exactly twelve models are all named, with no "more"', async () => {
    const ids = Array.from({ length: 12 }, (_, index) => `model-${index + 1}`);
    const { host } = await serve({ '/v1/models': openAiList(...ids) });
    const result = await check({ LAL_HOST: `${host}/v1`, LAL_MODEL: 'other' });
    expect(result.problem).not.toContain(' more');
    expect(result.problem?.split(', ')).toHaveLength(12);
  });
});

describe('a LAL_HOST that names the chat endpoint', () => {
  it.each([
    ['openai', 'http://127.0.0.1:9/v1/chat/completions', 'http://127.0.0.1:9/v1'],
    ['openai', 'http://127.0.0.1:9/v1/completions', 'http://127.0.0.1:9/v1'],
    ['openai', 'http://127.0.0.1:9/chat/completions', 'http://127.0.0.1:9'],
    ['ollama', 'http://127.0.0.1:9/api/generate', 'http://127.0.0.1:9'],
    ['ollama', 'http://127.0.0.1:9/v1/chat/completions', 'http://127.0.0.1:9'],
    ['anthropic', 'http://127.0.0.1:9/v1/messages', 'http://127.0.0.1:9'],
  ])('%s at %s: set it to %s', async (provider, given, address) => {
    const env = provider === 'anthropic' ? ANTHROPIC : { LAL_PROVIDER: provider };
    expect(await check({ ...env, LAL_HOST: given })).toEqual({
      models: [],
      usable: false,
      problem: `LAL_HOST names the chat endpoint ${given}, not the server's address — set LAL_HOST to ${address} (the agent adds the endpoint's path itself).`,
    });
  });

  it('an address that only contains such a word is no endpoint', async () => {
    const { host } = await serve({ '/messages/v1/models': openAiList('qwen3') });
    expect(await check({ LAL_HOST: `${host}/messages/v1`, LAL_MODEL: 'qwen3' })).toMatchObject({
      usable: true,
    });
  });
});

describe('answers that are not a list', () => {
  it.each([401, 403])('HTTP %i: the credentials are refused', async status => {
    const { host } = await serve({ '/v1/models': { status, body: '{"error":"no"}' } });
    expect(await check({ LAL_HOST: `${host}/v1` })).toEqual({
      models: [],
      usable: false,
      refused: true,
      problem: `${host}/v1 refuses the credentials (HTTP ${status}) — set LAL_AUTH_TOKEN (or LAL_AUTH_TOKEN_FILE) to a valid key.`,
    });
  });

  it('a server error where nothing else answers: a stop without LAL_MODEL, advice with it', async () => {
    const { host } = await serve({ '/v1/models': { status: 500, body: '{"error":"down"}' } });
    expect(await check({ LAL_HOST: `${host}/v1` })).toEqual({
      models: [],
      usable: false,
      problem: `${host}/v1 answered HTTP 500 when asked for its models — the server failed (its own log says why): mend it and start again, or set LAL_MODEL to the model to use so that its list is not needed.`,
    });
    expect(await check({ LAL_HOST: `${host}/v1`, LAL_MODEL: 'qwen3' })).toEqual({
      models: [],
      usable: true,
      problem: `${host}/v1 answered HTTP 500 when asked for its models`,
    });
  });

  it('a web page where another API answers beside it: that API is named', async () => {
    const { host } = await serve({
      '/models': { type: 'text/html', body: '<html>login</html>' },
      '/v1/models': openAiList('qwen3'),
    });
    expect(await check({ LAL_HOST: host, LAL_PROVIDER: 'openai' })).toEqual({
      models: [],
      usable: false,
      problem: `${host} answered with a web page, not an OpenAI-compatible API — OpenAI-compatible servers answer under /v1: set LAL_HOST to ${host}/v1.`,
    });
  });
});

describe('an Anthropic LAL_PROVIDER given a list of another shape', () => {
  it("Ollama's shape at /v1/models: set LAL_PROVIDER=ollama", async () => {
    const { host } = await serve({ '/v1/models': ollamaList('qwen3:latest') });
    expect(await check({ ...ANTHROPIC, LAL_HOST: host })).toEqual({
      models: [],
      usable: false,
      problem: `${host} is not Anthropic's API (its model list is Ollama's one) — set LAL_PROVIDER=ollama.`,
    });
  });

  it('a list of no known shape is taken as it is', async () => {
    const { host } = await serve({ '/v1/models': { data: [{ id: 'claude-x' }] } });
    expect(await check({ ...ANTHROPIC, LAL_HOST: host, LAL_MODEL: 'claude-x' })).toEqual({
      models: ['claude-x'],
      usable: true,
    });
  });

  it('an Ollama or OpenAI LAL_PROVIDER takes any shape of list', async () => {
    const { host } = await serve({ '/api/tags': anthropicList('qwen3') });
    expect(await check({ LAL_HOST: host, LAL_MODEL: 'qwen3' })).toMatchObject({ usable: true });
  });
});

describe('the API that answers nearby, asked only where it could be', () => {
  it('OpenAI at an address with /v1 that Ollama serves: not asked under /v1/v1', async () => {
    const { host, asked } = await serve({ '/api/tags': ollamaList('qwen3:latest') });
    const result = await check({ LAL_HOST: `${host}/v1`, LAL_PROVIDER: 'openai' });
    expect(result.problem).toBe(
      `${host}/v1 does not answer as an OpenAI-compatible API: it is Ollama's native API: set LAL_PROVIDER=ollama and LAL_HOST to ${host}.`,
    );
    expect(asked).toEqual(['/v1/models', '/api/tags']);
  });

  it('OpenAI where nothing answers: no API to name, so LAL_HOST, LAL_PROVIDER or LAL_MODEL to check', async () => {
    const { host, asked } = await serve({});
    expect(await check({ LAL_HOST: host, LAL_PROVIDER: 'openai' })).toEqual({
      models: [],
      usable: false,
      problem: `${host} answered HTTP 404 when asked for its models — is LAL_HOST the address of a model server speaking an OpenAI-compatible API (the API LAL_PROVIDER, or the guess from LAL_HOST, names)? Check LAL_HOST and LAL_PROVIDER; a server that speaks it but lists no models needs LAL_MODEL set to the model to use.`,
    });
    expect(asked).toEqual(['/models', '/v1/models', '/api/tags']);
    // With LAL_MODEL set the list is not needed: the problem is advice, not a stop.
    expect(await check({ LAL_HOST: host, LAL_PROVIDER: 'openai', LAL_MODEL: 'm' })).toEqual({
      models: [],
      usable: true,
      problem: `${host} answered HTTP 404 when asked for its models`,
    });
  });

  it('Ollama at an address with /v1 of an OpenAI-compatible server: LAL_PROVIDER=openai, never /v1/v1', async () => {
    const { host, asked } = await serve({ '/v1/models': openAiList('qwen3') });
    expect((await check({ LAL_HOST: `${host}/v1`, LAL_PROVIDER: 'ollama' })).problem).toBe(
      `${host}/v1 does not answer as Ollama's API: it is an OpenAI-compatible server: set LAL_PROVIDER=openai.`,
    );
    expect(asked).toEqual(['/v1/api/tags', '/api/tags', '/v1/models']);
  });

  it('Ollama where nothing answers: each place asked once', async () => {
    const { host, asked } = await serve({});
    expect(await check({ LAL_HOST: host, LAL_PROVIDER: 'ollama' })).toMatchObject({
      usable: false,
    });
    expect(asked).toEqual(['/api/tags', '/models', '/v1/models']);
  });

  it.each([
    ['ollama', ''],
    ['ollama', '/v1'],
    ['openai', ''],
    ['openai', '/v1'],
  ])(
    "Anthropic's API (its list has has_more) asked as %s at the address%s: LAL_PROVIDER=anthropic, never an OpenAI /v1",
    async (provider, suffix) => {
      const { host } = await serve({ '/v1/models': anthropicList('claude-sonnet-4-20250514') });
      const { problem } = await check({ LAL_HOST: `${host}${suffix}`, LAL_PROVIDER: provider });
      expect(problem).toContain(
        `it is Anthropic's API: set LAL_PROVIDER=anthropic and LAL_HOST to ${host}`,
      );
      expect(problem).not.toMatch(/OpenAI-compatible server|Ollama's native/);
    },
  );

  // Anthropic's API refuses a list asked without its key (HTTP 401), in its own error envelope
  // (`type: "error"`): the 401 says which API it is, and the key is what it also needs.
  it.each([
    ['ollama', ''],
    ['ollama', '/v1'],
    ['openai', ''],
    ['openai', '/v1'],
  ])(
    "Anthropic's API asked without a key as %s at the address%s: LAL_PROVIDER=anthropic and a key, not a stop for /v1",
    async (provider, suffix) => {
      const { host } = await serve({
        '/v1/models': {
          status: 401,
          body: JSON.stringify({
            type: 'error',
            error: { type: 'authentication_error', message: 'x-api-key header is required' },
            request_id: 'req_1',
          }),
        },
      });
      const result = await check({ LAL_HOST: `${host}${suffix}`, LAL_PROVIDER: provider });
      expect(result).toMatchObject({ usable: false });
      expect(result.problem).toContain(
        `it is Anthropic's API: set LAL_PROVIDER=anthropic and LAL_HOST to ${host}, and LAL_AUTH_TOKEN (or LAL_AUTH_TOKEN_FILE) to your key`,
      );
      expect(result.problem).not.toMatch(
        /OpenAI-compatible server|Ollama's native|LAL_HOST to \S*\/v1/,
      );
    },
  );

  it("an OpenAI-compatible server's 401 is still the key to change, not Anthropic", async () => {
    const { host } = await serve({
      '/v1/models': {
        status: 401,
        body: JSON.stringify({ error: { message: 'bad key', type: 'invalid_request_error' } }),
      },
    });
    expect((await check({ LAL_HOST: `${host}/v1` })).problem).toBe(
      `${host}/v1 refuses the credentials (HTTP 401) — set LAL_AUTH_TOKEN (or LAL_AUTH_TOKEN_FILE) to a valid key.`,
    );
  });

  it('the Anthropic double (as npm run model-double serves it), reached with no provider and no key, is named', async () => {
    const server = await startServer({ protocol: 'anthropic', reply: () => ({ text: 'pong' }) });
    const result = await check({ LAL_HOST: server.url });
    expect(result).toMatchObject({ usable: false });
    expect(result.problem).toContain("it is Anthropic's API: set LAL_PROVIDER=anthropic");
  });

  it('Anthropic where nothing answers: each place asked once', async () => {
    const { host, asked } = await serve({});
    expect(await check({ ...ANTHROPIC, LAL_HOST: host })).toMatchObject({ usable: false });
    expect(asked).toEqual(['/v1/models', '/api/tags', '/models']);
  });
});

describe('what is near a setting, but is not it', () => {
  it('an address ending in /v1beta is not one ending in /v1: /v1 is added after it', async () => {
    const { host } = await serve({ '/v1beta/v1/models': openAiList('qwen3') });
    expect((await check({ LAL_HOST: `${host}/v1beta`, LAL_PROVIDER: 'openai' })).problem).toBe(
      `${host}/v1beta does not answer as an OpenAI-compatible API: OpenAI-compatible servers answer under /v1: set LAL_HOST to ${host}/v1beta/v1.`,
    );
  });

  it('a path that begins like an endpoint is no endpoint', async () => {
    const { host } = await serve({ '/api/chatbot/api/tags': ollamaList('qwen3:latest') });
    expect(
      await check({ LAL_HOST: `${host}/api/chatbot`, LAL_PROVIDER: 'ollama', LAL_MODEL: 'qwen3' }),
    ).toMatchObject({ usable: true });
  });

  it('only a final ":latest" is the default tag', async () => {
    const { host } = await serve({ '/api/tags': ollamaList('qwen3:latest-q4') });
    expect(await check({ LAL_HOST: host, LAL_MODEL: 'qwen3-q4' })).toMatchObject({
      usable: false,
    });
  });

  it("an embedding model under its organisation's name is one; a name that merely contains such a word is not", async () => {
    const { host } = await serve({
      '/v1/models': openAiList('BAAI/bge-m3', 'sentence-transformers/all-minilm-l6'),
    });
    expect((await check({ LAL_HOST: `${host}/v1` })).problem).toMatch(
      /lists only embedding models/,
    );
    const chat = await serve({ '/v1/models': openAiList('assistante5-chat') });
    expect(await check({ LAL_HOST: `${chat.host}/v1` })).toMatchObject({ usable: true });
  });
});

describe('nothing that answers: no models, not usable', () => {
  it.each([6000, 1])(
    'a port Node refuses to use (%i: fetch throws "bad port" before connecting) is said so, not "Nothing answers"',
    async port => {
      const result = await check({ LAL_HOST: `http://127.0.0.1:${port}/v1` });
      expect(result).toEqual({
        models: [],
        usable: false,
        problem: `Node refuses to use port ${port} of LAL_HOST (http://127.0.0.1:${port}/v1): its fetch blocks the port (a "bad port" of the Fetch standard, kept for other services), so no server there can be reached — run the model server on another port and set LAL_HOST to it.`,
      });
    },
  );

  it('nothing listening', async () => {
    const { host } = await serve({});
    await raw.close();
    expect(await check({ LAL_HOST: `${host}/v1` })).toEqual({
      models: [],
      usable: false,
      problem: expect.stringMatching(/^Nothing answers at /),
    });
  });

  it('a host name that does not resolve', async () => {
    const unresolvable: typeof fetch = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo EAI_AGAIN olama'), { code: 'EAI_AGAIN' }),
        }),
      );
    expect(
      await checkServer(readProviderConfig({ LAL_HOST: 'http://olama:11434' }), {
        fetch: unresolvable,
      }),
    ).toEqual({
      models: [],
      usable: false,
      problem: expect.stringMatching(
        /^The host name "olama" in LAL_HOST could not be looked up \(EAI_AGAIN\): no name server answered — is this machine online\?/,
      ),
    });
  });
});
