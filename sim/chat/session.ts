/**
 * The simulated daemon with one agent in it, started as `setup.ts` starts it
 * in the real daemon: a guest with its profile, and the agent's `make` run
 * on the guest's powers in its own worker (CapTP loopback, through `E()`),
 * with the real providers chosen from env. The host adds only a log sink and
 * a progress observer.
 */
import { E } from '@endo/far';
import { make } from '../../agent.js';
import type { Env } from '../../providers/types.js';
import type { AgentEvent } from '../../src/loop/agent-events.js';
import type { Persona } from '../../src/config/config.js';
import { makeMailHost, type CapletHandle, type MailHost } from '../mail-host/index.js';

export interface Session {
  mailHost: MailHost;
  /** The guest's pet name in HOST's directory (and the name to mail it by). */
  guestName: string;
  caplet: CapletHandle;
}

export const startSession = async (options: {
  persona: Persona;
  /** The agent's env, as setup.ts would pass it (only variables that are set). */
  env: Record<string, string>;
  log: (line: string) => void;
  observe: (event: AgentEvent) => void;
}): Promise<Session> => {
  const { persona } = options;
  const mailHost = makeMailHost();
  const guestName = persona;
  const powersName = `profile-for-${persona}`;
  await E(mailHost.host).provideGuest(guestName, { agentName: powersName });
  const makeWithHostHooks = (powers: unknown, context: unknown, extra: { env?: Env } = {}) =>
    make(powers as never, context, { ...extra, log: options.log, observe: options.observe });
  const caplet = await mailHost.startCaplet(makeWithHostHooks, {
    powersName,
    resultName: `controller-for-${persona}`,
    workerName: `worker-${persona}`,
    env: { ...options.env, LAL_PERSONA: persona },
  });
  return { mailHost, guestName, caplet };
};
harden(startSession);
