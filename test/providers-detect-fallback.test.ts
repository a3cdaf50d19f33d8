/**
 * Model detection (LAL_MODEL unset) and the LAL_FALLBACK chain, at the
 * wire: the real SDKs against the model-server doubles, which refuse what
 * the real services refuse.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectProvider, describeModelChoice } from '../providers/connect-provider.js';
import { ProviderError } from '../providers/types.js';
import type { ChatMessage, ToolSchema } from '../providers/types.js';
import { scriptedReplies, startModelServer } from '../sim/model-server/index.js';
import type {
  ModelProtocol,
  ModelServer,
  ModelServerOptions,
  ReplyScript,
} from '../sim/model-server/index.js';
import { useTempFolders } from './support/temp-folders.js';

const servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(server => server.close()));
});

const start = async (
  protocol: ModelProtocol,
  reply: ReplyScript,
  extra: Partial<ModelServerOptions> = {},
) => {
  const server = await startModelServer({ protocol, reply, ...extra });
  servers.push(server);
  return server;
};

const chats = (server: ModelServer) => server.requests.filter(request => request.method === 'POST');
const listCalls = (server: ModelServer) =>
  server.requests.filter(request => request.method === 'GET');

const listTool: ToolSchema = {
  type: 'function',
  function: {
    name: 'list',
    description: 'List names.',
    parameters: { type: 'object', properties: {} },
  },
};

describe('model detection', () => {
  it('uses the only model an OpenAI-compatible server lists', async () => {
    const server = await start('openai', scriptedReplies([], { text: 'hi' }), {
      models: ['solo-7b'],
    });
    const provider = await connectProvider({ LAL_HOST: server.url });
    expect(provider.model).toBe('solo-7b');
    expect(listCalls(server).map(request => request.path)).toEqual(['/v1/models']);
    await provider.chat([{ role: 'user', content: 'hello' }], []);
    expect(chats(server)[0]!.normalized!.model).toBe('solo-7b');
    // A server that lists one model (llama.cpp's llama-server, the double of `npm start -- --demo`)
    // has no other for LAL_MODEL to choose: the greeting says it is the only one, not "Set LAL_MODEL
    // to choose another" (which this test held before the newcomer trial of issue 45 found it wrong).
    expect(describeModelChoice(provider)).toBe(
      'I think with solo-7b (openai), the only model the server lists.',
    );
  });

  it('says how Ollama gets another model when it has one only', async () => {
    const server = await start('ollama', scriptedReplies([], { text: 'hi' }), {
      models: ['qwen3:latest'],
    });
    const provider = await connectProvider({ LAL_HOST: server.url });
    expect(describeModelChoice(provider)).toBe(
      'I think with qwen3:latest (ollama), the only model the server lists. `ollama pull <model>` adds another; LAL_MODEL then chooses it.',
    );
  });

  it('uses the first of several Ollama models and names the others', async () => {
    const server = await start('ollama', scriptedReplies([], { text: 'hi' }), {
      models: ['llama3:8b', 'qwen3:4b', 'phi4'],
    });
    const provider = await connectProvider({ LAL_HOST: server.url });
    expect(provider.model).toBe('llama3:8b');
    expect(listCalls(server).map(request => request.path)).toEqual(['/api/tags']);
    await provider.chat([{ role: 'user', content: 'hello' }], []);
    expect(chats(server)[0]!.normalized!.model).toBe('llama3:8b');
    expect(describeModelChoice(provider)).toMatch(
      /also offers qwen3:4b, phi4; set LAL_MODEL to choose one/,
    );
  });

  it("asks Anthropic's models list with the key, and LAL_MODEL wins over it", async () => {
    const server = await start('anthropic', scriptedReplies([], { text: 'hi' }), {
      models: ['claude-a', 'claude-b'],
      apiKey: 'sk-ant-0123456789',
    });
    const detected = await connectProvider({
      LAL_HOST: server.url,
      LAL_PROVIDER: 'anthropic',
      LAL_AUTH_TOKEN: 'sk-ant-0123456789',
    });
    expect(detected.model).toBe('claude-a');
    expect(listCalls(server)[0]).toMatchObject({ path: '/v1/models', hadAuth: true, status: 200 });
    const chosen = await connectProvider({
      LAL_HOST: server.url,
      LAL_PROVIDER: 'anthropic',
      LAL_AUTH_TOKEN: 'sk-ant-0123456789',
      LAL_MODEL: 'claude-b',
    });
    expect(chosen.model).toBe('claude-b');
    expect(describeModelChoice(chosen)).toMatch(
      /^I think with claude-b \(anthropic\), as LAL_MODEL says\. The server also offers claude-a/,
    );
  });

  it('falls back to the fixed default when the server cannot list its models', async () => {
    const server = await start('openai', scriptedReplies([], { text: 'hi' }), {
      modelListStatus: 404,
    });
    const provider = await connectProvider({ LAL_HOST: server.url });
    expect(provider.model).toBe('qwen3');
    expect(describeModelChoice(provider)).toMatch(/the default \(.*HTTP 404/);
    const empty = await start('ollama', scriptedReplies([], { text: 'hi' }), { models: [] });
    expect((await connectProvider({ LAL_HOST: empty.url })).model).toBe('qwen3');
  });
});

describe('the fallback chain (LAL_FALLBACK)', () => {
  const toolRound: ChatMessage[] = [
    { role: 'system', content: 'You are a test.' },
    { role: 'user', content: 'list your names' },
  ];

  it('moves to a second protocol mid-conversation when the first refuses connections, then fails with 500s, and returns after the cool-down', async () => {
    let clock = 1_000_000;
    let primaryFails = false;
    const primaryScript = scriptedReplies(
      [{ toolCalls: [{ name: 'list', arguments: {}, id: 'call_a1' }] }],
      { text: 'primary again' },
    );
    const primary = await start(
      'openai',
      request =>
        primaryFails ? { failure: { status: 500, message: 'overloaded' } } : primaryScript(request),
      { models: ['gpt-local'] },
    );
    const secondary = await start('anthropic', scriptedReplies([], { text: 'from claude' }), {
      models: ['claude-backup'],
      apiKey: 'sk-backup-0123456789',
    });
    const logs: string[] = [];
    const provider = await connectProvider(
      {
        LAL_HOST: primary.url,
        LAL_MAX_RETRIES: '1',
        LAL_FALLBACK: `${secondary.url}||BACKUP_KEY|anthropic`,
        BACKUP_KEY: 'sk-backup-0123456789',
        LAL_FALLBACK_COOLDOWN_MS: '60000',
      },
      { log: line => logs.push(line), now: () => clock },
    );
    expect(provider.chain?.map(link => link.model)).toEqual(['gpt-local', 'claude-backup']);

    // 1: the primary answers with a tool call.
    const first = await provider.chat(toolRound, [listTool]);
    expect(first.model).toBe('gpt-local');
    const history: ChatMessage[] = [
      ...toolRound,
      first.message,
      {
        role: 'tool',
        toolCallId: first.message.toolCalls![0]!.id,
        name: 'list',
        content: '["HOST"]',
      },
    ];

    // 2: the primary refuses connections; the Anthropic server gets the history in its own protocol, and accepts it.
    await primary.refuseConnections();
    const second = await provider.chat(history, [listTool]);
    expect(second.model).toBe('claude-backup');
    expect(second.message.content).toBe('from claude');
    const converted = chats(secondary)[0]!;
    expect(converted.status).toBe(200);
    expect(converted.normalized!.messages.map(message => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
    expect(converted.normalized!.messages[2]!.toolCalls![0]!.id).toBe('call_a1');
    history.push(second.message, { role: 'user', content: 'again' });

    // 3: before the cool-down the chain stays on the fallback, without asking the primary.
    await primary.acceptConnections();
    const before = primary.requests.length;
    const third = await provider.chat(history, [listTool]);
    expect(third.model).toBe('claude-backup');
    expect(primary.requests.length).toBe(before);
    history.push(third.message, { role: 'user', content: 'and again' });

    // 4: after the cool-down the primary is tried again; its 500s (after one retry) send the call back to the fallback.
    clock += 60_000;
    primaryFails = true;
    const fourth = await provider.chat(history, [listTool]);
    expect(fourth.model).toBe('claude-backup');
    expect(
      chats(primary)
        .slice(-2)
        .map(request => request.status),
    ).toEqual([500, 500]);
    history.push(fourth.message, { role: 'user', content: 'once more' });

    // 5: after another cool-down the primary answers again, and takes the conversation back.
    clock += 60_000;
    primaryFails = false;
    const back = await provider.chat(history, [listTool]);
    expect(back.model).toBe('gpt-local');
    expect(back.message.content).toBe('primary again');
    expect(chats(primary).at(-1)!.status).toBe(200);
    expect(logs.join('\n')).toMatch(/trying gpt-local at .* again after the cool-down/);
    // The fallback's token never reaches a log line.
    expect(logs.join('\n')).not.toContain('sk-backup-0123456789');
  });

  it('switches at once on a 429 with Retry-After: 3600, without retrying the primary', async () => {
    const primary = await start(
      'anthropic',
      () => ({ failure: { status: 429, message: 'rate limited', retryAfter: '3600' } }),
      {
        models: ['claude-main'],
        apiKey: 'sk-main-0123456789',
      },
    );
    const secondary = await start('ollama', scriptedReplies([], { text: 'local answer' }), {
      models: ['qwen3:4b'],
    });
    const provider = await connectProvider({
      LAL_HOST: primary.url,
      LAL_PROVIDER: 'anthropic',
      LAL_AUTH_TOKEN: 'sk-main-0123456789',
      LAL_MAX_RETRIES: '2',
      LAL_FALLBACK: secondary.url,
    });
    const result = await provider.chat(toolRound, [listTool]);
    expect(result.model).toBe('qwen3:4b');
    expect(result.message.content).toBe('local answer');
    // One attempt only: the SDK was told not to retry a wait of an hour.
    expect(chats(primary).map(request => request.status)).toEqual([429]);
  });

  it('gives one error naming every server when all fail', async () => {
    const primary = await start('openai', () => ({ failure: { status: 503, message: 'down' } }), {
      models: ['m1'],
    });
    const secondary = await start(
      'ollama',
      () => ({ failure: { status: 500, message: 'also down' } }),
      { models: ['m2'] },
    );
    const provider = await connectProvider({
      LAL_HOST: primary.url,
      LAL_MAX_RETRIES: '0',
      LAL_FALLBACK: secondary.url,
    });
    const failure = await provider.chat(toolRound, []).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as Error).message).toMatch(
      /every model server failed — m1: .*503.* — m2: .*500/,
    );
    // The kind is the last server's, so the agent treats it as that failure.
    expect((failure as ProviderError).kind).toBe('server');
  });

  it('refuses a malformed entry with the variable named', async () => {
    await expect(connectProvider({ LAL_FALLBACK: 'localhost:8080|m' })).rejects.toThrow(
      /LAL_FALLBACK entry 1 must start with an http/,
    );
  });

  it('refuses a token variable that is not a variable name, and a cool-down that is not whole milliseconds', async () => {
    await expect(connectProvider({ LAL_FALLBACK: 'http://127.0.0.1:9|m|my-key' })).rejects.toThrow(
      'LAL_FALLBACK entry 1 names the token variable "my-key", which is not a variable name',
    );
    for (const value of ['-1', 'soon', '1.5']) {
      await expect(
        connectProvider({
          LAL_MODEL: 'm',
          LAL_FALLBACK: 'http://127.0.0.1:9|m',
          LAL_FALLBACK_COOLDOWN_MS: value,
        }),
      ).rejects.toThrow(
        `LAL_FALLBACK_COOLDOWN_MS must be a whole number of milliseconds; got ${JSON.stringify(value)}`,
      );
    }
  });

  it("names the entry's own token variable, never the primary's, when an Anthropic fallback has no key", async () => {
    const failure = await connectProvider({
      LAL_FALLBACK: 'https://api.anthropic.com|claude-x|CLAUDE_KEY',
    }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(
      /^LAL_FALLBACK entry 1: CLAUDE_KEY is required for Anthropic: set CLAUDE_KEY_FILE to a file .* \(or CLAUDE_KEY to the key\)$/,
    );
    expect(failure?.message).not.toMatch(/LAL_AUTH_TOKEN/);
    await expect(
      connectProvider({ LAL_FALLBACK: 'https://api.anthropic.com|claude-x' }),
    ).rejects.toThrow(
      /^LAL_FALLBACK entry 1 needs a token: name the variable that holds it as the entry's third part \(URL\|model\|TOKEN_VARIABLE\)$/,
    );
  });
});

describe('fallback tokens', () => {
  const makeTempFolder = useTempFolders();
  it('are redacted by value whatever their variable is called, also when read from a *_FILE, and passed on by setup', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { makeRedactor } = await import('../src/log/log.js');
    const { pickEnv } = await import('../setup/passed-env.js');
    const file = join(makeTempFolder('token'), 'token');
    writeFileSync(file, 'from-file-0123456789\n');
    const env = {
      LAL_FALLBACK: 'http://127.0.0.1:9/v1|m|BACKUP_CRED, http://127.0.0.1:10/v1|m|OTHER',
      BACKUP_CRED: 'plain-0123456789',
      OTHER_FILE: file,
    };
    const redact = makeRedactor(env);
    expect(redact('a plain-0123456789 b from-file-0123456789 c')).toBe(
      'a [redacted] b [redacted] c',
    );
    expect(pickEnv({ ...env, UNRELATED: 'x' })).toEqual(env);
  });
});
