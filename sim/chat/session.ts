/**
 * The simulated daemon with one agent in it, started as `setup.ts` starts it
 * in the real daemon: a guest with its profile, and the agent's `make` run
 * on the guest's powers in its own worker (CapTP loopback, through `E()`),
 * with the real providers chosen from env. The host adds only a log sink,
 * a progress observer and the person's list of tools to be asked about.
 */
import { E } from '@endo/far';
import { make } from '../../agent.js';
import type { Env } from '../../providers/types.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { Persona } from '../../src/config/config.js';
import type { HostConfirm } from '../../src/policy/tool-policy.js';
import {
  makeMailHost,
  type CapletHandle,
  type DaemonProfile,
  type MailHost,
  type SeededIdentity,
} from '../mail-host/index.js';

type GuestPowersOf = ReturnType<MailHost['guest']>['powers'];

export interface Session {
  mailHost: MailHost;
  /** The guest's pet name in HOST's directory (and the name to mail it by). */
  guestName: string;
  /** The agent's current incarnation (a new one after stopTurn, once goOn made it again). */
  caplet: CapletHandle;
  /**
   * The numbers of the messages an earlier run left in the agent's inbox (one
   * waiting for an answer to its request, say): no turn of this run is owed them.
   */
  earlierMail: ReadonlySet<string>;
  /**
   * The numbers of the messages HOST's inbox held before the agent started (a request an
   * earlier run left waiting, say): none of them says the agent is ready.
   */
  hostMailBefore: ReadonlySet<string>;
  /**
   * Stops the turn in progress: the agent is cancelled and the message the
   * turn was about leaves its inbox (so it is not taken up again). The agent
   * stays stopped, taking up nothing that waits for it, until `goOn`.
   */
  stopTurn(messageNumber: bigint | undefined): Promise<void>;
  /** After a stop: the agent is made again from its store, as the daemon does after a restart. */
  goOn(): Promise<void>;
  /** The agent's controls (what its make returned), once it runs: after a stop, once it goes on. */
  controls(): Promise<unknown>;
  /**
   * Calls the controller's work done between turns (`forget`, `schedules`: src/run-agent.ts
   * `makeBetweenTurns`). A stop cancels the agent, and with it that work still waiting for the
   * turn: it is called again on the agent made again, once it goes on, since Ctrl-C stops the
   * turn, not the person's commands (docs/behaviour.md 10.2).
   */
  betweenTurns<T>(call: (controls: unknown) => Promise<T>): Promise<T>;
  /**
   * When the agent now running was made (ms since the epoch). What it asked
   * before was asked by an earlier one (an earlier run's, or before a stop):
   * it learns the answer from its copy of the request, which keeps only how
   * it was settled, not the words (./lost-words.ts tells it those).
   */
  agentSince: number;
}

export const startSession = async (options: {
  persona: Persona;
  /** The agent's env, as setup.ts would pass it (only variables that are set). */
  env: Record<string, string>;
  log: (line: string) => void;
  observe: (event: AgentEvent) => void;
  /** Fills the guest's store before the agent starts (what an earlier run kept). */
  restore?: (guestPowers: GuestPowersOf, mailHost: MailHost) => Promise<void>;
  /** The daemon generation played: f0a46042a by default, the newest with --newest. */
  profile?: DaemonProfile;
  /**
   * The daemon an earlier run was (./kept-daemon.ts): its ids drawn from the
   * same seed, told once the guest is there so its numbering goes on.
   */
  daemon?: { identity: SeededIdentity; started(mailHost: MailHost): void };
  /** Told `earlierMail` before the agent starts (its first turn may be on one of them). */
  sawEarlierMail?: (numbers: ReadonlySet<string>) => void;
  /** The calls put to the person first, read at each call (./approvals.ts), in place of LAL_TOOLS_CONFIRM. */
  confirm?: HostConfirm;
}): Promise<Session> => {
  const { persona } = options;
  const mailHost = makeMailHost({
    ...(options.profile === undefined ? {} : { profile: options.profile }),
    ...(options.daemon === undefined ? {} : { identity: options.daemon.identity }),
  });
  const guestName = persona;
  const powersName = `profile-for-${persona}`;
  await E(mailHost.host).provideGuest(guestName, { agentName: powersName });
  options.daemon?.started(mailHost);
  const earlierMail = new Set(
    mailHost
      .guest(guestName)
      .inbox()
      .map(message => String(message.number)),
  );
  options.sawEarlierMail?.(earlierMail);
  await options.restore?.(mailHost.guest(guestName).powers, mailHost);
  const hostMailBefore = new Set(
    (await E(mailHost.host).listMessages()).map(message => String(message.number)),
  );
  const makeWithHostHooks = (powers: unknown, context: unknown, extra: { env?: Env } = {}) =>
    make(powers as never, context, {
      ...extra,
      log: options.log,
      observe: options.observe,
      ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
    });
  const resultName = `controller-for-${persona}`;
  /** How many stops there were: work a stop cancelled is called again (`betweenTurns`). */
  let stops = 0;
  /** Set while a stop holds the agent: resolved when it goes on. */
  let held: { goneOn: Promise<void>; release: () => void } | undefined;
  const madeAt = Date.now();
  const session: Session = {
    mailHost,
    guestName,
    earlierMail,
    hostMailBefore,
    agentSince: madeAt,
    caplet: await mailHost.startCaplet(makeWithHostHooks, {
      powersName,
      resultName,
      workerName: `worker-${persona}`,
      env: { ...options.env, LAL_PERSONA: persona },
    }),
    async stopTurn(messageNumber) {
      stops += 1;
      // Held from the first: the controls asked for while the agent is being cancelled are the next one's.
      if (held === undefined) {
        let release = () => {};
        const goneOn = new Promise<void>(resolve => (release = resolve));
        held = { goneOn, release };
      }
      await session.caplet.cancel(Error('the host stopped the turn (Ctrl-C)'));
      if (messageNumber !== undefined)
        await Promise.resolve(E(mailHost.guest(guestName).powers).dismiss(messageNumber)).catch(
          () => {},
        );
    },
    async goOn() {
      if (held === undefined) return;
      session.agentSince = Date.now();
      session.caplet = await mailHost.revive(resultName);
      held.release();
      held = undefined;
    },
    async controls() {
      await held?.goneOn;
      return session.caplet.value;
    },
    async betweenTurns(call) {
      for (;;) {
        const controls = await session.controls();
        const stopsBefore = stops;
        try {
          return await call(controls);
        } catch (error) {
          // Failed for a stop since it was called (cancelled with the agent): again once it goes on.
          if (stops === stopsBefore) throw error;
        }
      }
    },
  };
  return session;
};
harden(startSession);
