/**
 * A reply cut by the output limit never acts (src/loop/truncated-reply.ts), through make(), the
 * real SDKs and the wire doubles: OpenAI's finish_reason "length", Anthropic's stop_reason
 * "max_tokens" and Ollama's done_reason "length". None of its calls runs, structured or written
 * as text; the model is told why and retries; cut again and again, the sender is told.
 */
import { describe, expect, test } from 'vitest';
import {
  startModelServer,
  type ModelProtocol,
  type NormalizedRequest,
  type ScriptedReply,
} from '../sim/model-server/index.js';
import { TEXT_CALL_SAMPLES } from './support/text-call-samples.js';
import { asMessages, startAgent, textOf } from './support/agent-harness.js';
import type { AgentRun } from './support/agent-harness.js';
import { noticeNumber, useWireAgents, wireEnv } from './support/wire-agents.js';

const { keepServer, keepAgent } = useWireAgents();

const start = async (
  protocol: ModelProtocol,
  script: (request: NormalizedRequest) => ScriptedReply,
) => {
  const server = await startModelServer({ protocol, reply: script });
  keepServer(server);
  const run = await startAgent({
    realProvider: true,
    env: wireEnv(protocol, server.url, { LAL_MAX_TOKENS: '64' }),
  });
  keepAgent(run);
  return { server, run };
};

/** Every message the agent sent the host, as text. */
const sentTexts = async (run: AgentRun): Promise<string[]> =>
  asMessages(await run.host.host.listMessages())
    .filter(message => message.from !== run.host.hostId)
    .map(textOf);

/** The text of the tool results the model was shown in this request. */
const toolResults = (request: NormalizedRequest | undefined): string[] =>
  (request?.messages ?? []).filter(message => message.role === 'tool').map(m => m.text);

const chatsOf = (server: { requests: { normalized?: NormalizedRequest }[] }) =>
  server.requests.flatMap(request => (request.normalized ? [request.normalized] : []));

describe.each(['openai', 'anthropic', 'ollama'] as const)(
  'a reply cut by the output limit over %s',
  protocol => {
    test('runs none of its calls; the model is told it was cut, retries shorter, and that reply runs', async () => {
      let number = 0;
      const { server, run } = await start(protocol, request => {
        if (request.index === 0) {
          number = noticeNumber(request);
          return {
            truncated: true,
            toolCalls: [
              { name: 'reply', arguments: { messageNumber: number, strings: ['half an ans'] } },
              { name: 'reply', arguments: { messageNumber: number, strings: ['other half'] } },
            ],
          };
        }
        if (request.index === 1) {
          return {
            toolCalls: [{ name: 'reply', arguments: { messageNumber: number, strings: ['pong'] } }],
          };
        }
        return { text: 'Done.' };
      });
      await run.send('ping');
      await run.reply('pong');
      const chats = chatsOf(server);
      const results = toolResults(chats[1]);
      expect(results).toHaveLength(2);
      for (const result of results) {
        expect(JSON.parse(result).error).toMatch(
          /^not run: your reply was cut off at the output token limit .* none of its 2 tool calls ran .*Retry with a shorter reply/,
        );
      }
      const sent = await sentTexts(run);
      expect(sent).not.toContain('half an ans');
      expect(sent).not.toContain('other half');
    });

    test('a call written as text in a cut reply does not run either', async () => {
      const [sample] = TEXT_CALL_SAMPLES;
      let number = 0;
      const { server, run } = await start(protocol, request => {
        if (request.index === 0) {
          number = noticeNumber(request);
          return { truncated: true, text: sample!.text(number).replace('pong', 'pon') };
        }
        if (request.index === 1) {
          return {
            toolCalls: [{ name: 'reply', arguments: { messageNumber: number, strings: ['pong'] } }],
          };
        }
        return { text: 'Done.' };
      });
      await run.send('ping');
      await run.reply('pong');
      expect(JSON.parse(toolResults(chatsOf(server)[1])[0]!).error).toMatch(
        /^not run: your reply was cut off/,
      );
      expect(await sentTexts(run)).not.toContain('pon');
    });

    test('cut again and again: nothing runs, the turn ends after 3, the sender is told, the next message is served', async () => {
      let cutting = true;
      let number = 0;
      const { server, run } = await start(protocol, request => {
        // The notice after a cut text-only reply names no message: keep the last number seen.
        if (/#\d/.test(request.messages.at(-1)?.text ?? '')) number = noticeNumber(request);
        const answer = { messageNumber: number, strings: [cutting ? 'cut' : 'pong'] };
        if (!cutting) return { toolCalls: [{ name: 'reply', arguments: answer }] };
        return request.index % 2 === 0
          ? { truncated: true, toolCalls: [{ name: 'reply', arguments: answer }] }
          : { truncated: true, text: 'A long answer that never e' };
      });
      await run.send('ping');
      await run.reply(
        /^I stopped working on this: the model's replies were cut off at the output token limit 3 times in a row \(raise `?LAL_MAX_TOKENS`?/,
        15_000,
      );
      expect(chatsOf(server)).toHaveLength(3);
      // The cut text-only reply was answered with a notice, not sent.
      expect(chatsOf(server)[2]!.messages.at(-1)?.text).toMatch(
        /^\[Your last reply was cut off at the output token limit/,
      );
      expect(await sentTexts(run)).not.toContain('cut');
      expect(await sentTexts(run)).not.toContain('A long answer that never e');
      cutting = false;
      await run.send('ping again');
      await run.reply('pong');
    });
  },
);
