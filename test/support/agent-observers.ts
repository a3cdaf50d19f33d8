/**
 * What the agent tests read of a run, written once: how many turns ended,
 * the guest's own powers, and the requests waiting in the HOST's inbox.
 */
import { E } from '@endo/far';
import { asMessages, type AgentRun } from './agent-harness.js';

/** Turns finished so far (each ends with one `turn-end` event). */
export const turnEnds = (run: AgentRun) =>
  run.events.filter(event => event.kind === 'turn-end').length;

/** The guest's own powers, as its store and inbox are read. */
export const guest = (run: AgentRun) => E(run.host.guest(run.name).powers);

/** The requests in the HOST's inbox (approvals, host-approved code, the agent's requests). */
export const hostRequests = async (run: AgentRun) =>
  asMessages(await E(run.host.host).listMessages()).filter(message => message.type === 'request');
