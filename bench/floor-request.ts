/**
 * The model request an agent's first ping makes, for the floors that ask
 * the model as the agent would (bench/model-echo.ts in-process, and
 * bench/real-daemon/echo-floor.ts's provider mode): the persona's system
 * prompt and built-in tools for this daemon and one message notice, sent
 * through the agent's own provider (the real SDK, streaming). The SDK and the
 * request's size are costs the agent cannot shed, so a floor that pays them
 * leaves the agent's own work as the difference.
 */
import { BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import type { DaemonAdapter } from '../src/daemon/daemon-adapter.js';
import { promptFor, schemasFor } from '../src/prompt/speak-generation.js';
import { messageNotice } from '../src/mail/message-notice.js';
import type { MessageRecord } from '../src/mail/message-record.js';
import { systemPrompt } from '../src/prompt/system-prompt.js';
import { createProvider } from '../providers/create-provider.js';
import type { ChatResult, Env } from '../providers/types.js';

export const makeFloorAsk = (
  persona: 'lal' | 'fae',
  daemon: DaemonAdapter,
  env: Env,
): ((message: MessageRecord) => Promise<ChatResult>) => {
  const provider = createProvider(env);
  const system = promptFor(systemPrompt(persona), daemon);
  const tools = schemasFor(BUILTIN_SCHEMAS, daemon);
  return message =>
    provider.chat(
      [
        { role: 'system', content: system },
        { role: 'user', content: messageNotice(persona, message, daemon.names.host) },
      ],
      tools,
    );
};
harden(makeFloorAsk);
