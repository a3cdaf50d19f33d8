/**
 * Runs the agent the way the daemon does: inside the mail host (the daemon
 * double), reached only through far references, with a scripted model.
 */
import { E } from '@endo/far';
import { make } from '../../agent.js';
import { makeMailHost, type DaemonProfile } from '../../sim/mail-host/index.js';
import type { Env } from '../../providers/types.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { Clock } from '../../src/lifecycle/clock.js';
import { makeRevivalMemory } from '../../src/lifecycle/revival-backoff.js';
import { makeLastWrites } from '../../src/lifecycle/last-write.js';
import { makeHeldMemory } from '../../src/daemon/held-formulas.js';
import {
  makeScriptedProvider,
  callTool,
  type RecordedRequest,
  type ScriptedProvider,
  type Step,
} from './scripted-provider.js';
import { WAIT_MS } from './patience.js';

export type MailHost = ReturnType<typeof makeMailHost>;
export interface Message {
  type: string;
  number: bigint;
  from: string;
  strings?: string[];
  names?: string[];
  replyTo?: string;
  messageId?: string;
  [field: string]: unknown;
}

/** The mail host's waitForMessage, seen through the loose Message shape the tests read. */
export const waitForMessage = async (
  host: MailHost,
  pred: (message: Message) => boolean,
  options?: { who?: string; timeoutMs?: number },
): Promise<Message> =>
  (await host.waitForMessage(
    record => pred(record as unknown as Message),
    options,
  )) as unknown as Message;

/** Messages as the tests read them (the mail host's records are a stricter union). */
export const asMessages = (records: unknown): Message[] => records as Message[];

export const textOf = (message: { strings?: readonly string[] }): string =>
  (message.strings ?? []).join('');

export interface AgentRun {
  host: MailHost;
  name: string;
  /** The agent's first message to HOST. */
  greeting?: Message;
  provider: ScriptedProvider;
  logs: string[];
  events: AgentEvent[];
  /** The first event (already seen or still to come) that matches: a wait for what happens, not for a time. */
  untilEvent(match: (event: AgentEvent) => boolean): Promise<AgentEvent>;
  /** Mails the agent as HOST. */
  send(text: string, attach?: { edgeNames: string[]; petNames: string[] }): Promise<void>;
  /** The next package from the agent to HOST whose text matches. */
  reply(match: RegExp | string, timeoutMs?: number): Promise<Message>;
  /** How many times make() was called: the first start, restarts and the daemon's revivals. */
  readonly incarnations: number;
  /** The env each model back end was made with (the scripted model's), in order. */
  readonly providerEnvs: readonly Env[];
  /** The agent exo's help(), called through E() as the host would. */
  help(methodName?: string): Promise<string>;
  /** The agent exo's forget(), through E(). */
  forget(): Promise<string>;
  /** The agent exo's tools(), through E(): every tool its turns can reach by name. */
  tools(): Promise<string>;
  /** The agent exo's schedules(action?, id?), through E(). */
  schedules(action?: string, id?: string): Promise<string>;
  /** The agent exo's helpers(action?, id?), through E(). */
  helpers(action?: string, id?: string): Promise<string>;
  /** The agent exo's channels(action?, channel?, level?), through E(). */
  channels(action?: string, channel?: string, level?: string): Promise<string>;
  /** Restarts make() on the same guest (a daemon restart), with a fresh model script. */
  restart(steps?: Step[]): Promise<void>;
  /**
   * Cancels the agent and makes it again without a daemon restart (its worker died; LAL_RESTART=1;
   * the simulator's Ctrl-C, with its reason), with a fresh model script.
   */
  restartAgent(steps?: Step[], reason?: unknown): Promise<void>;
  cancel(): Promise<void>;
}

/** The number of the message the latest notice is about. */
export const latestMessageNumber = (request: RecordedRequest): number => {
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index]!;
    if (message.role !== 'user') continue;
    const found = [...message.content.matchAll(/#(\d+)/g)].pop();
    if (found !== undefined) return Number(found[1]);
  }
  throw new Error('no message notice in the request');
};

/** A model step that replies to the message of the latest notice. */
export const replyStep =
  (text: string): Step =>
  request =>
    callTool('reply', { messageNumber: latestMessageNumber(request), strings: [text] });

export interface StartOptions {
  persona?: 'lal' | 'fae';
  env?: Env;
  steps?: Step[];
  host?: MailHost;
  introducedNames?: Record<string, string>;
  /** The scripted model to start with (instead of one made from `steps`). */
  provider?: ScriptedProvider;
  /** Use the real providers (createProvider from env) instead of the scripted model. */
  realProvider?: boolean;
  /** The daemon generation the mail host plays (ignored when `host` is given). */
  profile?: DaemonProfile;
  /** Time for quotas and wake-ups (a manual clock); the system's by default. Kept across restart(). */
  clock?: Clock;
  /** Runs after the guest exists and before the agent starts. */
  prepare?: (host: MailHost, name: string) => Promise<void>;
  /** Stands between the agent and its powers (each incarnation's), e.g. to break a connection on cue. */
  wrapPowers?: (powers: unknown) => Promise<unknown>;
}

export const startAgent = async (options: StartOptions = {}): Promise<AgentRun> => {
  const persona = options.persona ?? 'lal';
  const name = persona;
  const host =
    options.host ?? makeMailHost(options.profile === undefined ? {} : { profile: options.profile });
  await E(host.host).provideGuest(name, {
    agentName: `profile-for-${name}`,
    ...(options.introducedNames === undefined ? {} : { introducedNames: options.introducedNames }),
  });
  if (options.prepare !== undefined) await options.prepare(host, name);
  const logs: string[] = [];
  const events: AgentEvent[] = [];
  const eventWaiters = new Set<(event: AgentEvent) => void>();
  const see = (event: AgentEvent) => {
    events.push(event);
    for (const waiter of [...eventWaiters]) waiter(event);
  };
  let provider = options.provider ?? makeScriptedProvider(options.steps ?? []);
  const env: Record<string, string> = {
    LAL_PERSONA: persona,
    ...(options.env as Record<string, string> | undefined),
  };
  const seen = new Set<string>();
  // One agent's worker process, as the daemon runs it: its incarnations share what it remembers.
  const revivals = makeRevivalMemory();
  // And its stopped runs' last writes, which the next run awaits (src/lifecycle/last-write.ts).
  const lastWrites = makeLastWrites();
  // What the worker process named for what it was handed: a new process after a daemon restart.
  let held = makeHeldMemory();
  let incarnations = 0;
  const providerEnvs: Env[] = [];
  const makeFn = (powers: unknown, context: unknown, extra: { env?: Env } = {}) => {
    incarnations += 1;
    const made = (given: unknown) =>
      make(given as never, context, {
        ...extra,
        revivals,
        lastWrites,
        held,
        ...(options.realProvider === true
          ? {}
          : {
              createProvider: (providerEnv: Env) => {
                providerEnvs.push(providerEnv);
                return provider;
              },
            }),
        log: line => logs.push(line),
        observe: see,
        ...(options.clock === undefined ? {} : { clock: options.clock }),
      });
    // Unwrapped, the powers stay the promise the daemon gives (a guest that fails to load rejects it).
    return options.wrapPowers === undefined ? made(powers) : options.wrapPowers(powers).then(made);
  };
  let caplet = await host.startCaplet(makeFn, {
    powersName: `profile-for-${name}`,
    env,
    workerName: `worker-${name}`,
  });

  const run: AgentRun = {
    host,
    name,
    get provider() {
      return provider;
    },
    logs,
    events,
    providerEnvs,
    get incarnations() {
      return incarnations;
    },
    untilEvent: match =>
      new Promise(resolve => {
        const already = events.find(match);
        if (already !== undefined) {
          resolve(already);
          return;
        }
        const waiter = (event: AgentEvent) => {
          if (!match(event)) return;
          eventWaiters.delete(waiter);
          resolve(event);
        };
        eventWaiters.add(waiter);
      }),
    async send(text, attach) {
      await E(host.host).send(
        name,
        [text, ...(attach?.edgeNames.map(() => '') ?? [])],
        attach?.edgeNames ?? [],
        attach?.petNames ?? [],
      );
    },
    // Generous: two test files share two cores with whatever else the machine runs; a reply that
    // comes is seen at once, so only a failing test waits this long.
    async reply(match, timeoutMs = WAIT_MS) {
      const found = await waitForMessage(
        host,
        message =>
          message.type === 'package' &&
          message.from !== host.hostId &&
          !seen.has(String(message.number)) &&
          (typeof match === 'string' ? textOf(message) === match : match.test(textOf(message))),
        { timeoutMs },
      );
      seen.add(String(found.number));
      return found;
    },
    help: methodName => E(caplet.value as { help(name?: string): string }).help(methodName),
    forget: () => E(caplet.value as { forget(): Promise<string> }).forget(),
    tools: () => E(caplet.value as { tools(): Promise<string> }).tools(),
    schedules: (...args) =>
      E(caplet.value as { schedules(action?: string, id?: string): Promise<string> }).schedules(
        ...args,
      ),
    helpers: (...args) =>
      E(caplet.value as { helpers(action?: string, id?: string): Promise<string> }).helpers(
        ...args,
      ),
    channels: (...args) =>
      E(
        caplet.value as {
          channels(action?: string, channel?: string, level?: string): Promise<string>;
        },
      ).channels(...args),
    async restart(steps = []) {
      provider = makeScriptedProvider(steps);
      await caplet.cancel('restart');
      await host.restart();
      held = makeHeldMemory();
      // This caplet is not pinned, so, as in the daemon, it is made again when looked up.
      caplet = await host.revive(caplet.id);
    },
    async restartAgent(steps = [], reason = 'restart') {
      provider = makeScriptedProvider(steps);
      await caplet.cancel(reason);
      caplet = await host.revive(caplet.id);
    },
    async cancel() {
      await caplet.cancel('test over');
    },
  };
  run.greeting = await run.reply(persona === 'fae' ? /^Fae agent ready\./ : /^Lal agent ready\./);
  return run;
};
