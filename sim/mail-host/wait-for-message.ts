/** The tests' wait for a message in an inbox: one already there, or the next that matches. */
import { describeMessage } from './describe-message.js';
import type { Agent } from './agents.js';
import type { MessageRecord, WaitForMessageOptions } from './types.js';

// Generous for a loaded 2-core machine, as test/support/patience.ts's WAIT_MS.
const defaultWaitMs = 30_000;

export const makeWaitForMessage =
  (agentNamed: (name: string | undefined) => Agent) =>
  (
    pred: (message: MessageRecord) => boolean,
    { who, timeoutMs = defaultWaitMs }: WaitForMessageOptions = {},
  ): Promise<MessageRecord> => {
    const agent = agentNamed(who);
    const already = agent.mailbox.list().find(pred);
    if (already) return Promise.resolve(already);
    const feed = agent.mailbox.subscribeNew();
    return new Promise<MessageRecord>((resolve, reject) => {
      const timer = setTimeout(() => {
        feed.end();
        const inbox = agent.mailbox.list().map(describeMessage);
        reject(
          Error(
            `No matching message in ${who ?? 'HOST'}'s inbox after ${timeoutMs} ms; it holds ${inbox.length} message(s)${
              inbox.length ? `:\n  ${inbox.join('\n  ')}` : ''
            }`,
          ),
        );
      }, timeoutMs);
      const watch = async () => {
        for (;;) {
          const { done, value } = await feed.next();
          if (done) return;
          if (pred(value)) {
            clearTimeout(timer);
            feed.end();
            resolve(value);
            return;
          }
        }
      };
      watch().catch((error: unknown) => {
        clearTimeout(timer);
        // The feed fails with an Error; anything else is carried as the cause of one.
        reject(
          error instanceof Error
            ? error
            : Error(`Waiting for a message failed: ${String(error)}`, { cause: error }),
        );
      });
    });
  };
harden(makeWaitForMessage);
