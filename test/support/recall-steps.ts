/**
 * A turn that asks `mail recall` and replies with what came back, for the
 * tests of the searchable history (docs/behaviour.md 3.11).
 */
import { latestMessageNumber, type AgentRun } from './agent-harness.js';
import { callTool, type RecordedRequest, type Step } from './scripted-provider.js';

export const lastToolResult = (request: RecordedRequest): string => {
  const last = request.messages.at(-1);
  if (last?.role !== 'tool') throw new Error('the model expected a tool result');
  return last.content;
};

/** The model asks recall with `query`, then replies `recalled: <what it got back>`. */
export const recallSteps = (query: string): Step[] => [
  request => callTool('mail', { op: 'recall', query, messageNumber: latestMessageNumber(request) }),
  request =>
    callTool('reply', {
      messageNumber: latestMessageNumber(request),
      strings: [`recalled: ${lastToolResult(request)}`],
    }),
];

/** What `mail recall` answered: how many exchanges it searched and those it found. */
export type Recalled = { searched: number; found: { messageNumber?: number; message: string }[] };

/** The HOST asks what it said about `query`; the model recalls it and replies with the result. */
export const askRecall = async (run: AgentRun, query: string): Promise<Recalled> => {
  run.provider.push(...recallSteps(query));
  await run.send(`what did I say about ${query}?`);
  const answer = await run.reply(/^recalled: /);
  return JSON.parse(answer.strings!.join('').slice('recalled: '.length)) as Recalled;
};
