/**
 * What the agent tests read of a run, written once: how many turns ended,
 * the guest's own powers, the requests waiting in the HOST's inbox, the
 * messages the agent sent the HOST; and the
 * start most of them share, a first turn that makes one call.
 */
import { E } from '@endo/far';
import { expect } from 'vitest';
import type { AssistantMessage } from '../../providers/types.js';
import {
  asMessages,
  latestMessageNumber,
  type AgentRun,
  type StartOptions,
} from './agent-harness.js';
import { say } from './scripted-provider.js';
import type { MailHost } from '../../sim/mail-host/index.js';

/** Turns finished so far (each ends with one `turn-end` event). */
export const turnEnds = (run: AgentRun) =>
  run.events.filter(event => event.kind === 'turn-end').length;

/** The guest's own powers, as its store and inbox are read. */
export const guest = (run: AgentRun) => E(run.host.guest(run.name).powers);

/** The requests in the HOST's inbox (approvals, host-approved code, the agent's requests). */
export const hostRequests = async (run: AgentRun) =>
  asMessages(await E(run.host.host).listMessages()).filter(message => message.type === 'request');

/** The messages the agent sent the HOST (replies, notes, what it was told to tell). */
export const fromAgentToHost = async (run: AgentRun) =>
  asMessages(await E(run.host.host).listMessages()).filter(
    message => message.type === 'package' && message.from === run.host.guest(run.name).id,
  );

/**
 * Starts an agent (with `start`, which keeps it for clean-up) whose first
 * turn answers the message "go" with `first`, then ends its turn; waits for
 * that turn to end. `origin()` is the number of the message "go".
 */
export const startWith = async (
  start: (options: StartOptions) => Promise<AgentRun>,
  first: AssistantMessage,
  options: StartOptions = {},
): Promise<{ run: AgentRun; origin: () => number }> => {
  let origin = -1;
  const run = await start({
    ...options,
    steps: [
      request => {
        origin = latestMessageNumber(request);
        return first;
      },
      say(''),
    ],
  });
  await run.send('go');
  await expect.poll(() => turnEnds(run)).toBe(1);
  return { run, origin: () => origin };
};

/** Settles at the first call of `method` on the guest's powers after a call of `after`. */
export const nextCall = (
  host: MailHost,
  guestName: string,
  method: string,
  after: string,
): Promise<void> =>
  new Promise(resolve => {
    let seen = false;
    const stop = host.traceCalls(guestName, called => {
      if (called === after) seen = true;
      if (!seen || called !== method) return;
      stop();
      resolve();
    });
  });
