/**
 * The cost of one model call through the real provider alone (SDK, HTTP on
 * loopback, JSON both ways) outside the model server, with the agent's own
 * system prompt and tool schemas: the floor under the agent's overhead.
 */
import { performance } from 'node:perf_hooks';
import { createProvider } from '../providers/create-provider.js';
import type { ChatMessage } from '../providers/types.js';
import { startModelServer, type ModelProtocol } from '../sim/model-server/index.js';
import { systemPrompt } from '../src/prompt/system-prompt.js';
import { BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';

export const providerCallSamples = async (
  protocol: ModelProtocol,
  calls: number,
  warmup: number,
): Promise<number[]> => {
  const server = await startModelServer({ protocol, reply: () => ({ text: 'pong' }) });
  try {
    const provider = createProvider({
      LAL_HOST: server.url,
      LAL_PROVIDER: protocol,
      LAL_MODEL: 'double-model',
      LAL_AUTH_TOKEN: 'bench-key-not-secret',
    });
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt('lal') },
      { role: 'user', content: 'You have new mail. Message #3 from HOST:\nping' },
    ];
    const samples: number[] = [];
    for (let index = 0; index < warmup + calls; index += 1) {
      const inside = server.timeInsideServerMs();
      const started = performance.now();
      await provider.chat(messages, BUILTIN_SCHEMAS, {});
      const outside = performance.now() - started - (server.timeInsideServerMs() - inside);
      if (index >= warmup) samples.push(outside);
    }
    return samples;
  } finally {
    await server.close();
  }
};
harden(providerCallSamples);
