/**
 * The channels part of the agent, started once the other parts are
 * assembled (newest daemon only): the routing model (LAL_ROUTER_MODEL, else
 * the main one) made beside the main one and metered alike, the channels
 * joined before a restart followed again, and help()'s Channels section.
 */
import type { Env, Provider } from '../../providers/types.js';
import { describeError } from '../../providers/describe-error.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Log } from '../log/log.js';
import type { Observe } from '../events/agent-events.js';
import type { StatusBoard } from '../status/agent-status.js';
import type { Memory } from '../memory/agent-memory.js';
import type { AgentConfig } from '../config/config.js';
import { loadModel, type ModelChoice } from '../model/load-model.js';
import type { HistoryArchive } from '../recall/history-archive.js';
import { makeChannelBudget, type BudgetParts } from './channel-budget.js';
import type { ChannelWork } from './channel-thread.js';
import { makeJoinedChannels, type JoinedChannels } from './joined-channels.js';

const providerOf = (choice: ModelChoice) => ('provider' in choice ? choice.provider : undefined);

export const startChannels = async (setup: {
  powers: unknown;
  env: Env;
  persona: 'lal' | 'fae';
  /** When an answer's placeholder is posted (LAL_PROGRESS_AFTER_MS); undefined: never (LAL_PROGRESS=0). */
  placeholderAfterMs: number | undefined;
  model: ModelChoice;
  memory: Memory;
  createProvider: (env: Env, tools: { log: Log }) => Provider | Promise<Provider>;
  status: StatusBoard;
  log: Log;
  /** Each channel answer's turn, as a mail turn's is told. */
  observe: Observe;
  redact: (text: string) => string;
  clock: Clock;
  signal: AbortSignal;
  push: (work: ChannelWork) => void;
  /** What a channel pays with: its bounds as a party, the hourly budgets (./channel-budget.ts). */
  budget: Omit<BudgetParts<ChannelWork>, 'clock'>;
  /** The searchable history: a channel's turns are kept there as the channel's. */
  history: Pick<HistoryArchive, 'add'>;
}): Promise<JoinedChannels> => {
  const { env, log, redact, clock } = setup;
  const routerModel = env.LAL_ROUTER_MODEL;
  const router =
    typeof routerModel === 'string' && routerModel !== ''
      ? await loadModel({
          createProvider: setup.createProvider,
          env: { ...env, LAL_MODEL: routerModel },
          log,
          redact,
          memory: setup.memory,
          clock,
        })
      : setup.model;
  const channels = makeJoinedChannels({
    powers: setup.powers,
    log,
    clock,
    signal: setup.signal,
    agentName: setup.persona === 'fae' ? 'Fae' : 'Lal',
    main: () => providerOf(setup.model),
    router: () => providerOf(router),
    placeholderAfterMs: setup.placeholderAfterMs,
    persona: setup.persona,
    budget: makeChannelBudget({ ...setup.budget, clock }),
    remember: (turn, channel) => setup.history.add(turn, undefined, channel),
    observe: setup.observe,
    push: setup.push,
  });
  setup.status.section('Channels', () => {
    const lines = channels.describe();
    return lines.length > 0 ? lines : ['none joined (an @mention in a channel joins it)'];
  });
  // The agent serves its mail whatever became of the channels.
  await channels
    .resume()
    .catch((error: unknown) =>
      log(`the joined channels were not followed again: ${describeError(error)}`),
    );
  return channels;
};
harden(startChannels);

/**
 * The HOST's hand on the channels (the controller's `channels()`), and their
 * start once the parts are assembled: on the newest daemon only, stopped
 * with the agent.
 */
export const makeChannelsHand = () => {
  let started: JoinedChannels | undefined;
  return {
    start: async (
      setup: Omit<
        Parameters<typeof startChannels>[0],
        'model' | 'memory' | 'push' | 'budget' | 'history' | 'persona' | 'placeholderAfterMs'
      > & {
        config: Pick<AgentConfig, 'persona' | 'liveProgress' | 'progressAfterMs'>;
        queue: { push(work: ChannelWork): void };
        parts: {
          daemon: { generation: string; canEdit: boolean };
          model: ModelChoice;
          memory: Memory;
          history: Pick<HistoryArchive, 'add'>;
          senders: BudgetParts<ChannelWork>['senders'];
          quotaWaits: BudgetParts<ChannelWork>['quotaWaits'];
          tell: (origin: undefined, text: string) => Promise<void>;
        };
        onCancel: { add(hook: () => void): unknown };
      },
    ): Promise<JoinedChannels | undefined> => {
      const { parts, onCancel, queue, config, ...rest } = setup;
      if (parts.daemon.generation !== 'newest') return undefined;
      const channels = await startChannels({
        ...rest,
        persona: config.persona,
        // Live progress as in the inbox: only where the daemon edits, and only when on.
        placeholderAfterMs:
          config.liveProgress && parts.daemon.canEdit ? config.progressAfterMs : undefined,
        model: parts.model,
        memory: parts.memory,
        history: parts.history,
        budget: {
          senders: parts.senders,
          quotaWaits: parts.quotaWaits,
          tellHost: line => parts.tell(undefined, line),
        },
        push: work => queue.push(work),
      });
      onCancel.add(() => channels.stop());
      started = channels;
      return channels;
    },
    control: (action?: string, channel?: string, level?: string): Promise<string> =>
      Promise.resolve().then(() => {
        if (started === undefined)
          throw new Error('no channels: the agent is still starting, or its daemon has none');
        return started.control(action, channel, level);
      }),
  };
};
harden(makeChannelsHand);
