/**
 * The start-up check as a newcomer meets it (issue 35, docs/behaviour.md
 * 7.1): a full endpoint URL is named with the address to use; an embedding
 * model listed first is never chosen to chat with; LAL_PROVIDER=anthropic at a
 * server that is not Anthropic is caught at start; a host name that does not
 * resolve is said to; `qwen3` is the model the server lists as
 * `qwen3:latest`; `~` and `$HOME` in `.env` values expand as in a shell.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkServer } from '../providers/check-server.js';
import { readProviderConfig } from '../providers/config.js';
import { connectProvider, describeModelChoice } from '../providers/connect-provider.js';
import { parseDotEnv } from '../sim/chat/dotenv.js';
import { startModelServer, type ModelServer } from '../sim/model-server/index.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const check = (env: Record<string, string>, fetchFn?: typeof fetch) =>
  checkServer(readProviderConfig(env), {
    hostFromEnv: true,
    ...(fetchFn === undefined ? {} : { fetch: fetchFn }),
  });

describe('the start-up check, for a newcomer', () => {
  it('a full endpoint URL in LAL_HOST is named, with the address to use instead', async () => {
    server = await startModelServer({ protocol: 'openai', reply: () => ({ text: 'hi' }) });
    const result = await check({ LAL_HOST: `${server.url}/chat/completions` });
    expect(result.usable).toBe(false);
    expect(result.problem).toBe(
      `LAL_HOST names the chat endpoint ${server.url}/chat/completions, not the server's address — set LAL_HOST to ${server.url} (the agent adds the endpoint's path itself).`,
    );
    const origin = server.url.replace(/\/v1$/, '');
    expect((await check({ LAL_HOST: `${origin}/api/chat` })).problem).toContain(
      `set LAL_HOST to ${origin} `,
    );
    // Nothing was asked of the server: the address alone shows the mistake.
    expect(server.requests).toHaveLength(0);
  });

  it('an embedding model listed first is passed over for the first chat model, and the greeting says so', async () => {
    server = await startModelServer({
      protocol: 'ollama',
      reply: () => ({ text: 'hi' }),
      models: ['nomic-embed-text:latest', 'qwen3:latest', 'bge-m3'],
    });
    const provider = await connectProvider({ LAL_HOST: server.url });
    expect(provider.model).toBe('qwen3:latest');
    expect(describeModelChoice(provider)).toBe(
      'I think with qwen3:latest (ollama), the first chat model the server lists (nomic-embed-text:latest is an embedding model). Set LAL_MODEL to choose another.',
    );
  });

  it('a server with embedding models only: which to set, and it stops', async () => {
    server = await startModelServer({
      protocol: 'openai',
      reply: () => ({ text: 'hi' }),
      models: ['text-embedding-3-small', 'all-minilm'],
    });
    const result = await check({ LAL_HOST: server.url });
    expect(result.usable).toBe(false);
    expect(result.problem).toBe(
      `${server.url} lists only embedding models (text-embedding-3-small, all-minilm), none to chat with — set LAL_MODEL to a chat model the server has.`,
    );
  });

  it('LAL_PROVIDER=anthropic at an OpenAI-compatible server that answers /v1/models too: caught at start', async () => {
    server = await startModelServer({ protocol: 'openai', reply: () => ({ text: 'hi' }) });
    const origin = server.url.replace(/\/v1$/, '');
    const result = await check({
      LAL_HOST: origin,
      LAL_PROVIDER: 'anthropic',
      LAL_AUTH_TOKEN: 'test-key-not-real',
    });
    expect(result.usable).toBe(false);
    expect(result.problem).toBe(
      `${origin} is not Anthropic's API (its model list is an OpenAI-compatible one) — set LAL_PROVIDER=openai and LAL_HOST to ${origin}/v1.`,
    );
    // The Anthropic double itself passes.
    await server.close();
    server = await startModelServer({ protocol: 'anthropic', reply: () => ({ text: 'hi' }) });
    expect(
      await check({ LAL_HOST: server.url, LAL_PROVIDER: 'anthropic', LAL_AUTH_TOKEN: 'k' }),
    ).toEqual({ models: ['double-model'], usable: true });
  });

  it('a host name that does not resolve is worded as such', async () => {
    // As undici fails a look-up that no name server answers.
    const unresolvable: typeof fetch = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo ENOTFOUND olama'), { code: 'ENOTFOUND' }),
        }),
      );
    const result = await check({ LAL_HOST: 'http://olama:11434' }, unresolvable);
    expect(result.usable).toBe(false);
    expect(result.problem).toBe(
      'The host name "olama" in LAL_HOST does not resolve (ENOTFOUND): a typo in LAL_HOST, or this machine has no network or name server (is it online?) — check the name, or use the machine\'s IP address.',
    );
  });

  it('a look-up no name server answered (EAI_AGAIN, as offline) names the network, not a typo', async () => {
    // Issue 45: LAL_HOST=https://api.anthropic.com on a machine without network said "a typo".
    const offline: typeof fetch = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo EAI_AGAIN api.anthropic.com'), {
            code: 'EAI_AGAIN',
          }),
        }),
      );
    const result = await check(
      { LAL_HOST: 'https://api.anthropic.com', LAL_AUTH_TOKEN: 'k' },
      offline,
    );
    expect(result.usable).toBe(false);
    expect(result.problem).toBe(
      'The host name "api.anthropic.com" in LAL_HOST could not be looked up (EAI_AGAIN): no name server answered — is this machine online? Check its network and DNS (or LAL_HOST for a typo), or use the machine\'s IP address.',
    );
  });

  it('LAL_MODEL=qwen3 is the qwen3:latest the server lists: no "also offers" it', async () => {
    server = await startModelServer({
      protocol: 'ollama',
      reply: () => ({ text: 'hi' }),
      models: ['qwen3:latest', 'llama3.2:latest'],
    });
    const provider = await connectProvider({ LAL_HOST: server.url, LAL_MODEL: 'qwen3' });
    expect(describeModelChoice(provider)).toBe(
      'I think with qwen3 (ollama), as LAL_MODEL says. The server also offers llama3.2:latest; set LAL_MODEL to choose one.',
    );
  });
});

describe('.env values expand ~ and $HOME as a shell does', () => {
  it('at the start of an unquoted value, $HOME and {HOME} after $ anywhere; single quotes keep them', () => {
    const { values } = parseDotEnv(
      [
        'LAL_AUTH_TOKEN_FILE=~/.config/key',
        'FAE_CWD=$HOME/work',
        // eslint-disable-next-line no-template-curly-in-string -- the shell's ${HOME}, in a .env line
        'MCP_AUTH_TOKEN_FILE="${HOME}/mcp key"',
        "LAL_NAME='~/literal $HOME'",
        'LAL_MODEL=a~b',
        'LAL_HOST=http://x/$HOMER',
      ].join('\n'),
      '/home/ada',
    );
    expect(values).toEqual({
      LAL_AUTH_TOKEN_FILE: '/home/ada/.config/key',
      FAE_CWD: '/home/ada/work',
      MCP_AUTH_TOKEN_FILE: '/home/ada/mcp key',
      LAL_NAME: '~/literal $HOME',
      LAL_MODEL: 'a~b',
      LAL_HOST: 'http://x/$HOMER',
    });
  });
});
