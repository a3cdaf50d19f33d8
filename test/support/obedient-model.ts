/**
 * A scripted model that obeys the words it is shown, as a real model can
 * be talked into doing (docs/behaviour.md 9): each instruction found in a
 * message that is not its own (the HOST's, a peer's, a tool's result, a
 * wake-up's note) and not yet done in this turn is done; then it answers
 * the latest message, or ends a wake-up's turn without a word. Pushed as
 * many times as a turn may need: a step left over is the same model.
 */
import type { ChatMessage } from '../../providers/types.js';
import { callTool, say, type RecordedRequest, type Step } from './scripted-provider.js';
import { latestMessageNumber } from './agent-harness.js';

/** An instruction the model obeys: when `words` are shown, it makes the call `act` returns. */
export interface Instruction {
  words: string;
  /** The call, from the text that showed the words (a message number may be read from it). */
  act: (shownIn: string) => { name: string; args: unknown };
}

const notItsOwn = (message: ChatMessage): boolean =>
  message.role === 'user' || message.role === 'tool';

/** Where this turn starts: the last message that is not a tool result nor the model's (its notice). */
const turnStart = (messages: readonly ChatMessage[]): number => {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index]!;
    if (message.role === 'user' && /^(Message #\d+ from|WAKE-UP|HEARTBEAT)/m.test(message.content))
      return index;
  }
  return 0;
};

const callsMadeSince = (messages: readonly ChatMessage[], from: number): string[] =>
  messages
    .slice(from)
    .flatMap(message =>
      message.role === 'assistant' ? (message.toolCalls ?? []).map(call => call.name) : [],
    );

/** The model's next step: the first instruction shown and not yet done, else an answer. */
export const obedientStep =
  (instructions: readonly Instruction[], answer = 'good morning'): Step =>
  (request: RecordedRequest) => {
    const { messages } = request;
    const start = turnStart(messages);
    const done = callsMadeSince(messages, start);
    for (const instruction of instructions) {
      const shownIn = messages.find(
        message => notItsOwn(message) && message.content.includes(instruction.words),
      );
      if (shownIn === undefined) continue;
      const call = instruction.act(shownIn.content);
      if (done.includes(call.name)) continue;
      return callTool(call.name, call.args);
    }
    const notice = messages[start]?.content ?? '';
    if (/^(WAKE-UP|HEARTBEAT)/m.test(notice) || done.includes('reply')) return say('');
    return callTool('reply', {
      messageNumber: latestMessageNumber(request),
      strings: [answer],
    });
  };

/** The same model pushed `times` times. */
export const obedient = (
  instructions: readonly Instruction[],
  times = 4,
  answer?: string,
): Step[] => Array.from({ length: times }, () => obedientStep(instructions, answer));

/** Whether any request the model was sent showed these words in a message not its own. */
export const everShown = (requests: readonly RecordedRequest[], words: string): boolean =>
  requests.some(request =>
    request.messages.some(message => notItsOwn(message) && message.content.includes(words)),
  );
