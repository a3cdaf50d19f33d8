/**
 * Errors a person can act on (behaviour 7.3), at the wire: a small
 * loopback server answers as llama.cpp, Ollama or a flaky proxy do, and
 * the real SDKs talk to it through createProvider.
 */
import { describe, expect, test } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import { ProviderError } from '../providers/types.js';
import { badPortProblem, isBadPort } from '../providers/bad-port.js';
import { connectionFailure } from '../providers/provider-errors.js';
import { useRawServer, type RawHandler } from './support/raw-http-server.js';

type Handler = RawHandler;
const { serve, close } = useRawServer();

const json =
  (status: number, body: unknown): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

const failureOf = async (env: Record<string, string>): Promise<ProviderError> => {
  const provider = createProvider({ LAL_MAX_RETRIES: '0', ...env });
  const error = await provider.chat([{ role: 'user', content: 'hi' }], []).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
};

describe('errors a person can act on (behaviour 7.3)', () => {
  test.each(['ollama', 'openai'])(
    '%s: a connection the server drops is not "Cannot reach … Is it running?"',
    async provider => {
      const host = await serve((request, _response) => request.socket.destroy());
      const error = await failureOf({
        LAL_HOST: provider === 'openai' ? `${host}/v1` : host,
        LAL_PROVIDER: provider,
      });
      expect(error.message).not.toMatch(/Cannot reach|Is it running/);
      expect(error.message).toMatch(/closed the connection before answering/);
    },
  );

  test.each(['ollama', 'openai'])(
    '%s: an answer that is not JSON says so, quoting its first bytes, and what to check (issue 45)',
    async provider => {
      const host = await serve((_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`this is not json ${'x'.repeat(200)}`);
      });
      const error = await failureOf({
        LAL_HOST: provider === 'openai' ? `${host}/v1` : host,
        LAL_PROVIDER: provider,
        LAL_MODEL: 'm',
      });
      // Before: the parser's own words, `Unexpected token 'h', "this is not json" is not valid JSON`.
      expect(error.message).not.toMatch(/Unexpected token|valid JSON/);
      expect(error.message).toMatch(
        /^(Ollama|OpenAI-compatible server) at .* answered something that is not JSON \(it began "this is not…"\)\. /,
      );
      expect(error.message).toContain('LAL_HOST');
      expect(error.message.length).toBeLessThan(400);
    },
  );

  test('a server that is not running is "Cannot reach … Is it running?"', async () => {
    const host = await serve(() => {});
    await close();
    const error = await failureOf({ LAL_HOST: host });
    expect(error.message).toMatch(/^Cannot reach Ollama at .* \(ECONNREFUSED\)\. Is it running\?/);
  });

  test.each([
    [
      'EAI_AGAIN',
      /^Cannot reach Anthropic at https:\/\/api\.anthropic\.com \(EAI_AGAIN\): no name server answered for its name — is this machine online\? Check its network and DNS \(or LAL_HOST for a typo\)\.$/,
    ],
    [
      'ENOTFOUND',
      /^Cannot reach Anthropic at https:\/\/api\.anthropic\.com \(ENOTFOUND\): its name does not resolve — a typo in LAL_HOST, or this machine has no network or name server\.$/,
    ],
  ])(
    'a name that cannot be looked up (%s) says the network, not "Is it running?" (issue 45)',
    (code, said) => {
      // As undici fails when the machine is offline.
      const offline = new TypeError('fetch failed', {
        cause: Object.assign(new Error(`getaddrinfo ${code} api.anthropic.com`), { code }),
      });
      const error = connectionFailure(offline, {
        service: 'Anthropic',
        host: 'https://api.anthropic.com',
        model: 'claude',
        secrets: [],
      });
      expect(error.kind).toBe('connection');
      expect(error.message).toMatch(said);
    },
  );

  test.each(['ollama', 'openai', 'anthropic'])(
    '%s: a port Node refuses to use (6000) is said so, not "Cannot reach … Is it running?"',
    async provider => {
      const error = await failureOf({
        LAL_HOST: provider === 'openai' ? 'http://127.0.0.1:6000/v1' : 'http://127.0.0.1:6000',
        LAL_PROVIDER: provider,
        LAL_AUTH_TOKEN: 'test-key-not-real',
      });
      expect(error.kind).toBe('connection');
      expect(error.message).not.toMatch(/Cannot reach|Is it running/);
      expect(error.message).toMatch(
        /^Node refuses to use port 6000 of LAL_HOST \(http:\/\/127\.0\.0\.1:6000/,
      );
    },
  );

  test('a "bad port" is found along the causes, never looping on a cause that names itself; the port is named when the address has one', () => {
    const refused = new TypeError('fetch failed', { cause: new Error('bad port') });
    expect(isBadPort(refused)).toBe(true);
    expect(isBadPort(new Error('outer', { cause: refused }))).toBe(true);
    expect(isBadPort(new TypeError('fetch failed', { cause: new Error('other') }))).toBe(false);
    expect(isBadPort('bad port')).toBe(false);
    const looped = new Error('fetch failed');
    (looped as { cause?: unknown }).cause = looped;
    expect(isBadPort(looped)).toBe(false);
    expect(badPortProblem('http://127.0.0.1:6000/v1')).toMatch(
      /^Node refuses to use port 6000 of LAL_HOST \(http:\/\/127\.0\.0\.1:6000\/v1\): /,
    );
    expect(badPortProblem('http://127.0.0.1/v1')).toMatch(
      /^Node refuses to use the port of LAL_HOST \(http:\/\/127\.0\.0\.1\/v1\): /,
    );
    expect(badPortProblem('no address')).toMatch(
      /^Node refuses to use the port of LAL_HOST \(\(unparseable LAL_HOST\)\): /,
    );
  });

  test("an OpenAI-shaped 404 on the Ollama path names the server's words and suggests /v1", async () => {
    const host = await serve(
      json(404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } }),
    );
    const error = await failureOf({ LAL_HOST: host });
    expect(error.message).not.toContain('[object Object]');
    expect(error.message).toContain('File Not Found');
    expect(error.message).toContain(`${host}/v1`);
    expect(error.message).not.toMatch(/\.\./);
  });

  test('an OpenAI-compatible server without /v1 gets the /v1 hint', async () => {
    const host = await serve((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('404 page not found');
    });
    const error = await failureOf({ LAL_HOST: host, LAL_PROVIDER: 'openai' });
    expect(error.message).toContain(`${host}/v1`);
  });

  test('an OpenAI-shaped answer on the Ollama path says what came back and what to change', async () => {
    const host = await serve(
      json(200, {
        id: 'x',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: 'hi' } }],
      }),
    );
    const error = await failureOf({ LAL_HOST: host });
    expect(error.message).not.toMatch(/Cannot read properties/);
    expect(error.message).toMatch(/not an Ollama chat reply/);
    expect(error.message).toContain(`${host}/v1`);
  });

  test('an Ollama-shaped answer on the OpenAI path says so', async () => {
    const host = await serve(
      json(200, { model: 'm', message: { role: 'assistant', content: 'hi' }, done: true }),
    );
    const error = await failureOf({ LAL_HOST: `${host}/v1` });
    expect(error.message).toMatch(/not an OpenAI chat completion/);
    expect(error.message).toMatch(/LAL_PROVIDER=ollama/);
  });

  test("llama.cpp's context-size rejection says how many tokens were needed and what to change", async () => {
    const host = await serve(
      json(400, {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 30_123,
          n_ctx: 4_096,
        },
      }),
    );
    const error = await failureOf({ LAL_HOST: `${host}/v1` });
    expect(error.message).toMatch(/needed 30123 tokens/);
    expect(error.message).toMatch(/context is 4096 tokens/);
    expect(error.message).toMatch(/LAL_CONTEXT_TOKENS/);
  });
});
