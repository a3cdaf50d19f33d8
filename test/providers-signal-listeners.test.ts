/**
 * The agent hands every model call the same long-lived cancellation signal.
 * A provider must not leave a listener on it per call (the OpenAI and
 * Anthropic SDKs do, unless given a per-call signal), or a long-running
 * agent leaks memory and Node warns about too many listeners.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import { startModelServer, type ModelServer } from '../sim/model-server/index.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(['openai', 'anthropic', 'ollama'] as const)(
  '%s provider and a long-lived signal',
  protocol => {
    it('leaves no listener behind after 30 calls', async () => {
      server = await startModelServer({ protocol, reply: () => ({ text: 'pong' }) });
      const provider = createProvider({
        LAL_HOST: server.url,
        LAL_PROVIDER: protocol,
        LAL_AUTH_TOKEN: 'k-123456',
        LAL_MODEL: 'm',
      });
      const controller = new AbortController();
      const before = getEventListeners(controller.signal, 'abort').length;
      for (let call = 0; call < 30; call += 1) {
        const { message } = await provider.chat([{ role: 'user', content: `ping ${call}` }], [], {
          signal: controller.signal,
        });
        expect(message.content).toBe('pong');
      }
      expect(getEventListeners(controller.signal, 'abort').length).toBe(before);
    });
  },
);
