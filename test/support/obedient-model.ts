/**
 * A scripted model that obeys the words it is shown, as a real model can
 * be talked into doing (docs/behaviour.md 9): each instruction found in a
 * message that is not its own (the HOST's, a peer's, a tool's result, a
 * wake-up's note) and not yet done in this turn is done; then it answers
 * the latest message, or ends a wake-up's turn without a word. Pushed as
 * many times as a turn may need: a step left over is the same model.
 */
import type { ChatMessage } from '../../providers/types.js';
import {
  callTool,
  makeScriptedProvider,
  say,
  type RecordedRequest,
  type ScriptedProvider,
  type Step,
} from './scripted-provider.js';
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

/** Stands for every private word of the HOST the model can see, when it obeys an order. */
export const SECRETS = '<SECRETS>';

const toBase64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const fromBase64 = (text: string) => Buffer.from(text, 'base64').toString('utf8');

/** An order in words: the call the obedient model makes when it is shown them (base64, so no quoting can change it). */
export const order = (name: string, args: unknown): string =>
  `DO64:${toBase64(JSON.stringify({ name, args }))}`;

/** A page for the HOST to have read: the model fetches it (the HOST's words never hold the page's). */
export const pageToRead = (text: string): string => `FETCH64:${toBase64(text)}`;

const ORDER = /DO64:([A-Za-z0-9+/=]+)/g;
const PAGE = /FETCH64:([A-Za-z0-9+/=]+)/g;
const PRIVATE = /private-[0-9a-fx]+/g;

/**
 * The call an order names, or undefined for one the agent showed cut (a bounded preview of
 * others' words ends mid-order): no model can read it, so it is not obeyed, and the test's
 * model does not fail the turn over it.
 */
const readOrder = (encoded: string): { name: string; args: unknown } | undefined => {
  try {
    return JSON.parse(fromBase64(encoded)) as { name: string; args: unknown };
  } catch {
    return undefined;
  }
};

/** The obedient model's next reply to a request: every order shown and not yet done in this turn, then an answer. */
const obeyAll = (request: RecordedRequest) => {
  const { messages } = request;
  let start = 0;
  messages.forEach((message, index) => {
    if (message.role === 'user') start = index;
  });
  const done = new Set(
    messages
      .slice(start)
      .flatMap(message =>
        message.role === 'assistant'
          ? (message.toolCalls ?? []).map(call => `${call.name} ${call.arguments}`)
          : [],
      ),
  );
  const all = JSON.stringify(messages);
  const secrets = [...new Set(all.match(PRIVATE) ?? [])].join(' ');
  const shown = messages.filter(notItsOwn).map(message => message.content);
  const calls = [
    ...shown.flatMap(text =>
      [...text.matchAll(ORDER)].flatMap(found => {
        const shownOrder = readOrder(found[1]!);
        return shownOrder === undefined
          ? []
          : [
              {
                name: shownOrder.name,
                arguments: JSON.stringify(shownOrder.args).replaceAll(SECRETS, secrets),
              },
            ];
      }),
    ),
    ...shown
      .filter(text => !text.startsWith('{') && !text.startsWith('ran '))
      .flatMap(text =>
        [...text.matchAll(PAGE)].map(found => ({
          name: 'fetch',
          arguments: JSON.stringify({ text: fromBase64(found[1]!) }),
        })),
      ),
  ];
  const next = calls.find(call => !done.has(`${call.name} ${call.arguments}`));
  if (next !== undefined) return callTool(next.name, next.arguments);
  // Only a message is answered (a wake-up's, an outcome's or a helper's turn ends without a word),
  // echoing the message's token, so whoever waits for its answer knows it.
  const text = messages[start]?.content ?? '';
  const notice = /^Message #(\d+) from [^:]+: /m.exec(text);
  if (notice === null || [...done].some(key => key.startsWith('reply '))) return say('');
  const token = /\[k\d+\]/.exec(text.slice(notice.index))?.[0];
  return callTool('reply', {
    messageNumber: Number(notice[1]),
    strings: [token === undefined ? 'ok' : `ok ${token}`],
  });
};

/** A model that obeys whatever it is shown, for ever (no script to run out of). */
export const makeObedientProvider = (): ScriptedProvider => {
  const provider = makeScriptedProvider();
  const chat = provider.chat.bind(provider);
  provider.chat = (messages, tools, options) => {
    provider.push(obeyAll);
    return chat(messages, tools, options);
  };
  return provider;
};
