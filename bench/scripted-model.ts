/**
 * The model the bench talks to, as a reply script for the model server
 * double: steps queued by a figure are answered first, in order; with none
 * queued it plays the realistic ping/pong of a well-behaved model — answer
 * the newest message with `reply`, then end the turn with no tool calls.
 */
import { makeError, X } from '@endo/errors';
import type { NormalizedRequest, ReplyScript, ScriptedReply } from '../sim/model-server/index.js';

export type ModelStep = (request: NormalizedRequest) => ScriptedReply;

export interface ScriptedModel {
  reply: ReplyScript;
  push(...steps: ModelStep[]): void;
}

/** The number of the message the latest notice (last user message) is about. */
export const latestNoticeNumber = (request: NormalizedRequest): number => {
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index]!;
    if (message.role !== 'user') continue;
    const found = [...message.text.matchAll(/#(\d+)/g)].pop();
    if (found !== undefined) return Number(found[1]);
  }
  throw makeError(X`bench model: no message notice in the request`);
};
harden(latestNoticeNumber);

export const callTool = (name: string, args: Record<string, unknown>): ScriptedReply => ({
  toolCalls: [{ name, arguments: args }],
});
harden(callTool);

export const done: ModelStep = () => ({ text: '' });
harden(done);

/** Replies "pong" to a fresh notice; once the tool result is back, ends the turn. */
const pingPong: ModelStep = request =>
  request.messages.at(-1)?.role === 'tool'
    ? { text: '' }
    : callTool('reply', { messageNumber: latestNoticeNumber(request), strings: ['pong'] });

export const makeScriptedModel = (): ScriptedModel => {
  const queue: ModelStep[] = [];
  return {
    reply: request => (queue.shift() ?? pingPong)(request),
    push: (...steps) => {
      queue.push(...steps);
    },
  };
};
harden(makeScriptedModel);
