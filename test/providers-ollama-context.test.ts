/**
 * Native Ollama cuts a prompt longer than its context window without a word,
 * and its default window is smaller than the agent's first request. The
 * provider asks for a window that fits the agent's budget and the reply.
 */
import { afterEach, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import { startModelServer, type ModelServer } from '../sim/model-server/index.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const numCtxSent = async (env: Record<string, string>): Promise<unknown> => {
  server = await startModelServer({ protocol: 'ollama', reply: () => ({ text: 'ok' }) });
  const provider = createProvider({ LAL_HOST: server.url, LAL_MODEL: 'qwen3', ...env });
  await provider.chat([{ role: 'user', content: 'hi' }], []);
  const body = server.requests.find(request => request.path === '/api/chat')?.body as {
    options?: Record<string, unknown>;
  };
  const options = body.options ?? {};
  await server.close();
  server = undefined;
  return options;
};

it('asks for the budget plus room for the reply, or LAL_NUM_CTX', async () => {
  expect(await numCtxSent({})).toEqual({ num_ctx: 28_672 });
  expect(await numCtxSent({ LAL_CONTEXT_TOKENS: '6000', LAL_MAX_TOKENS: '1000' })).toEqual({
    num_ctx: 7_168,
    num_predict: 1_000,
  });
  expect(await numCtxSent({ LAL_NUM_CTX: '16384' })).toEqual({ num_ctx: 16_384 });
});
