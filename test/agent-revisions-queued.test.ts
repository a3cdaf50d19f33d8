/**
 * The newest daemon shows every revision of a message again under its number
 * (docs/daemon-api.md). A message queued behind another turn that its sender
 * edits back to `done: false` is not answered with its old text: the agent
 * answers it once, in its final form, and dismisses it only then, so the
 * sender's final edit still reaches it (issue 23, defect 3; docs/behaviour.md 2.12).
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool } from './support/scripted-provider.js';
import {
  latestMessageNumber,
  textOf,
  waitForMessage,
  type AgentRun,
  type Message,
} from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** The host's own copy of the latest package it sent: the number editMessage takes. */
const sentByHost = async (run: AgentRun): Promise<bigint> => {
  const own = (await E(run.host.host).listMessages()) as unknown as Message[];
  return own.filter(message => message.type === 'package').at(-1)!.number;
};

const answerWith = (text: string) => (request: Parameters<typeof latestMessageNumber>[0]) =>
  callTool('reply', { messageNumber: latestMessageNumber(request), strings: [text] });

describe('a queued message edited back to done: false (newest daemon)', () => {
  test('is answered once, with its final text, and its final edit reaches the agent', async () => {
    let release!: () => void;
    const held = new Promise<void>(resolve => {
      release = resolve;
    });
    let started!: () => void;
    const busy = new Promise<void>(resolve => {
      started = resolve;
    });
    const run = await start({
      profile: 'newest',
      env: { LAL_PROGRESS: '0' },
      steps: [
        // The first message's turn holds the loop while the second waits in the queue.
        async request => {
          started();
          await held;
          return answerWith('first answered')(request);
        },
        request => {
          const notice = JSON.stringify(request.messages.at(-1));
          return answerWith(notice.includes('final:') ? 'final answered' : 'old text answered')(
            request,
          );
        },
      ],
    });
    await run.send('first');
    await busy;
    await run.send('draft: what is 6');
    const draft = await sentByHost(run);
    // Queued behind the first turn, then taken back to be rewritten.
    await E(run.host.host).editMessage(draft, ['draft: what is 6 times'], [], [], { done: false });
    release();
    await waitForMessage(run.host, message => textOf(message) === 'first answered');
    // The final edit: the agent must still hold the message for it to succeed.
    await E(run.host.host).editMessage(draft, ['final: what is 6 times 7?'], [], [], {
      done: true,
    });
    await waitForMessage(run.host, message => textOf(message) === 'final answered');
    const answers = (await E(run.host.host).listMessages())
      .map(message => textOf(message as unknown as Message))
      .filter(text => text.endsWith('answered'));
    expect(answers).toEqual(['first answered', 'final answered']);
    expect(run.provider.requests).toHaveLength(2);
    expect(JSON.stringify(run.provider.requests[1]!.messages.at(-1))).toContain(
      'final: what is 6 times 7?',
    );
  });

  test('taken back while its turn runs, it is kept, and its final form is answered', async () => {
    let draft = 0n;
    const run = await start({
      profile: 'newest',
      env: { LAL_PROGRESS: '0' },
      steps: [
        async request => {
          draft = await sentByHost(run);
          await E(run.host.host).editMessage(draft, ['draft: what is'], [], [], { done: false });
          return answerWith('draft answered')(request);
        },
        request =>
          answerWith(
            JSON.stringify(request.messages.at(-1)).includes('final:')
              ? 'final answered'
              : 'wrong text answered',
          )(request),
      ],
    });
    await run.send('draft: what');
    await waitForMessage(run.host, message => textOf(message) === 'draft answered');
    await E(run.host.host).editMessage(draft, ['final: what is 6 times 7?'], [], [], {
      done: true,
    });
    await waitForMessage(run.host, message => textOf(message) === 'final answered');
    expect(run.provider.requests).toHaveLength(2);
  });
});
