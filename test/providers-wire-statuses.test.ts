/**
 * HTTP statuses and Retry-After shapes at the wire, for each of the three
 * providers: the real SDK, through createProvider, against our double of the
 * service (which answers in that service's own error shape). Each status
 * must come back as the ProviderError kind the agent acts on, with the
 * server's words where they help and never where they may echo a key, and
 * retried only when retrying can help.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import type { ProviderOptions } from '../providers/create-provider.js';
import { ProviderError } from '../providers/types.js';
import type { ChatMessage } from '../providers/types.js';
import {
  alwaysFail,
  failFirst,
  scriptedReplies,
  startModelServer,
} from '../sim/model-server/index.js';
import type { ModelProtocol, ModelServer, ReplyScript } from '../sim/model-server/index.js';

const TOKEN = 'sk-status-secret-token-4321';
const ping: ChatMessage[] = [{ role: 'user', content: 'ping' }];

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (protocol: ModelProtocol, reply: ReplyScript): Promise<ModelServer> => {
  server = await startModelServer({ protocol, reply });
  return server;
};
const providerFor = (running: ModelServer, options: ProviderOptions = {}) =>
  createProvider(
    {
      LAL_HOST: running.url,
      LAL_PROVIDER: running.protocol,
      LAL_AUTH_TOKEN: TOKEN,
      LAL_MODEL: 'double-model',
    },
    { retryDelays: { baseDelayMs: 10 }, ...options },
  );
const failureOf = async (work: Promise<unknown>): Promise<ProviderError> => {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
};

describe.each(['ollama', 'openai', 'anthropic'] as const)('%s: statuses at the wire', protocol => {
  it('408 is a timeout the server gave, with its words', async () => {
    const running = await start(
      protocol,
      alwaysFail({ status: 408, message: 'request took too long' }),
    );
    const failure = await failureOf(providerFor(running, { maxRetries: 0 }).chat(ping, []));
    expect(failure.kind).toBe('timeout');
    expect(failure.status).toBe(408);
    expect(failure.message).toMatch(/timed out the request \(HTTP 408\): request took too long\.$/);
  });

  it("422 is a bad request, named with the server's words, and not retried", async () => {
    const running = await start(
      protocol,
      alwaysFail({ status: 422, message: 'tools[0].function.name is invalid' }),
    );
    const failure = await failureOf(providerFor(running, { maxRetries: 2 }).chat(ping, []));
    expect(failure.kind).toBe('bad-request');
    expect(failure.message).toMatch(
      /rejected the request \(HTTP 422\): tools\[0\]\.function\.name is invalid$/,
    );
    expect(running.requests).toHaveLength(1);
  });

  it('a status with no meaning of its own is reported as the number the server answered', async () => {
    const running = await start(protocol, alwaysFail({ status: 418, message: 'short and stout' }));
    const failure = await failureOf(providerFor(running, { maxRetries: 0 }).chat(ping, []));
    expect(failure.kind).toBe('unknown');
    expect(failure.message).toMatch(/answered HTTP 418: short and stout$/);
  });

  it('long server words are cut at 300 characters, and a token they echo is hidden', async () => {
    const words = `overloaded for ${TOKEN} ${'x'.repeat(600)}`;
    const running = await start(protocol, alwaysFail({ status: 500, message: words }));
    const failure = await failureOf(providerFor(running, { maxRetries: 0 }).chat(ping, []));
    expect(failure.kind).toBe('server');
    expect(failure.message).not.toContain(TOKEN);
    expect(failure.message).toContain('overloaded for [redacted] xxx');
    const said = failure.message.slice(failure.message.indexOf('overloaded'));
    expect(said).toMatch(/^overloaded for \[redacted\] x+…\.$/);
    expect(said.length).toBe(300 + '….'.length);
  });

  it("403 leaves out the server's words (they may echo the key) and names LAL_AUTH_TOKEN", async () => {
    const running = await start(
      protocol,
      alwaysFail({ status: 403, message: `key ending ${TOKEN.slice(-6)} may not use this model` }),
    );
    const failure = await failureOf(providerFor(running, { maxRetries: 2 }).chat(ping, []));
    expect(failure.kind).toBe('auth');
    expect(failure.status).toBe(403);
    expect(failure.message).toMatch(
      /refused the credentials \(HTTP 403\)\. Check LAL_AUTH_TOKEN\.$/,
    );
    expect(failure.message).not.toContain(TOKEN.slice(-6));
    expect(running.requests).toHaveLength(1);
  });

  it('a 503 whose Retry-After is an HTTP date already past is retried, and the call succeeds', async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    const running = await start(
      protocol,
      failFirst(1, { status: 503, retryAfter: past }, scriptedReplies([{ text: 'pong' }])),
    );
    const result = await providerFor(running).chat(ping, []);
    expect(result.message.content).toBe('pong');
    expect(running.requests.map(request => request.status)).toEqual([503, 200]);
  });

  it('a 429 asking to wait an hour (as an HTTP date) is not retried: the rate limit comes back at once', async () => {
    const later = new Date(Date.now() + 3_600_000).toUTCString();
    const running = await start(
      protocol,
      alwaysFail({ status: 429, message: 'slow down', retryAfter: later }),
    );
    const failure = await failureOf(providerFor(running, { maxRetries: 2 }).chat(ping, []));
    expect(failure.kind).toBe('rate-limit');
    expect(failure.message).toMatch(/is rate limiting requests \(HTTP 429\): slow down\.$/);
    expect(running.requests).toHaveLength(1);
  });

  it('413 naming both sizes in words is a context overflow with the way out', async () => {
    const words =
      'request (5000 tokens) exceeds the available context size (4096 tokens), try increasing it';
    const running = await start(protocol, alwaysFail({ status: 413, message: words }));
    const failure = await failureOf(providerFor(running, { maxRetries: 0 }).chat(ping, []));
    expect(failure.kind).toBe('bad-request');
    expect(failure.message).toMatch(
      /rejected the request as too long for its context: the request needed 5000 tokens and the server's context is 4096 tokens\. Start the server with a larger context \(llama\.cpp: -c 32768\) or lower LAL_CONTEXT_TOKENS below 3072\.$/,
    );
  });

  it("a 500 from an older llama.cpp that names only the request's size is a context overflow too", async () => {
    const running = await start(
      protocol,
      alwaysFail({
        status: 500,
        message: 'the request (9000 tokens) exceeds the available context size',
      }),
    );
    const failure = await failureOf(providerFor(running, { maxRetries: 0 }).chat(ping, []));
    expect(failure.kind).toBe('bad-request');
    expect(failure.message).toMatch(
      /too long for its context: the request needed 9000 tokens\. Start the server with a larger context \(llama\.cpp: -c 32768\) or lower LAL_CONTEXT_TOKENS\.$/,
    );
  });

  it('a call whose signal is already aborted never reaches the server', async () => {
    const running = await start(protocol, scriptedReplies([{ text: 'never' }]));
    const controller = new AbortController();
    controller.abort();
    const failure = await failureOf(
      providerFor(running).chat(ping, [], { signal: controller.signal }),
    );
    expect(failure.kind).toBe('aborted');
    expect(running.requests).toHaveLength(0);
  });
});
