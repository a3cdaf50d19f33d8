/**
 * Figure 4 — tool discovery with 50 FaeTools in tools/: the time from the
 * host's send to the first model request of the turn (the discovery happens
 * in between), for the first turn (cold: every tool looked up and its
 * schema read) and for a second turn with the directory unchanged (warm),
 * with the guest-power calls the agent made (look-ups, identify, list).
 * A Fae with an empty tools/ gives the baseline.
 */
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import type { ModelProtocol } from '../sim/model-server/index.js';
import { startBenchAgent, type BenchAgent, type Exchange } from './bench-agent.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import { ms } from './stats.js';

const TOOL_COUNT = 50;

interface TurnDiscovery {
  toFirstCallMs: number;
  lookups: number;
  identifies: number;
  lists: number;
  toolsOffered: number;
}

const discoveryTurn = async (agent: BenchAgent, text: string): Promise<TurnDiscovery> => {
  agent.host.resetCallCounts(agent.name);
  let offered = -1;
  agent.model.push(request => {
    offered = request.toolNames.filter(name => /^t\d+$/.test(name)).length;
    return { text: `seen ${text}` };
  });
  const exchange: Exchange = await agent.exchange(text);
  const counts = agent.host.callCounts(agent.name);
  await agent.forget();
  return {
    toFirstCallMs: exchange.firstRequestAt - exchange.sentAt,
    lookups: counts.lookup ?? 0,
    identifies: counts.identify ?? 0,
    lists: counts.list ?? 0,
    toolsOffered: offered,
  };
};

const describe = (turn: TurnDiscovery) =>
  `${ms(turn.toFirstCallMs)} to 1st call; ${turn.lookups} lookup, ${turn.identifies} identify, ${turn.lists} list; ${turn.toolsOffered} offered`;

export const discoveryFigure = async (protocol: ModelProtocol): Promise<FigureResult> => {
  const host = makeMailHost();
  const toolUrl = new URL('./bench-tool.js', import.meta.url).href;
  const introducedNames: Record<string, string> = {};
  for (let index = 0; index < TOOL_COUNT; index += 1) {
    await E(host.host).makeUnconfined(`worker-t${index}`, toolUrl, {
      resultName: `tool-${index}`,
      env: { TOOL_NAME: `t${index}` },
    });
    introducedNames[`tool-${index}`] = `tool-${index}`;
  }
  // Introduced at the top level; the agent moves them into tools/ at start (6.4).
  // A budget that offers all fifty directly: this figure measures discovery; the toolbox, which
  // defers tools past LAL_TOOL_BUDGET_TOKENS, is figure 13's.
  const withTools = await startBenchAgent({
    persona: 'fae',
    protocol,
    host,
    introducedNames,
    env: { LAL_TOOL_BUDGET_TOKENS: '1000000' },
  });
  let cold: TurnDiscovery;
  let warm: TurnDiscovery;
  let third: TurnDiscovery;
  try {
    cold = await discoveryTurn(withTools, 'one');
    warm = await discoveryTurn(withTools, 'two');
    third = await discoveryTurn(withTools, 'three');
  } finally {
    await withTools.stop();
  }
  const bare = await startBenchAgent({ persona: 'fae', protocol });
  let baseline: TurnDiscovery;
  let baselineWarm: TurnDiscovery;
  try {
    baseline = await discoveryTurn(bare, 'one');
    baselineWarm = await discoveryTurn(bare, 'two');
  } finally {
    await bare.stop();
  }
  const rows: FigureRow[] = [
    {
      label: `cold, ${TOOL_COUNT} tools (1st turn)`,
      measured: describe(cold),
      target: `all ${TOOL_COUNT} offered`,
      verdict: judged(cold.toolsOffered === TOOL_COUNT),
    },
    {
      label: `warm, directory unchanged (2nd turn)`,
      measured: describe(warm),
      target: '0 look-ups',
      verdict: judged(warm.lookups === 0 && warm.toolsOffered === TOOL_COUNT),
    },
    {
      label: `warm again (3rd turn)`,
      measured: describe(third),
      target: '0 look-ups',
      verdict: judged(third.lookups === 0),
    },
    {
      label: `baseline, empty tools/ (1st / 2nd turn)`,
      measured: `${ms(baseline.toFirstCallMs)} / ${ms(baselineWarm.toFirstCallMs)} to 1st call`,
      target: '',
      verdict: 'info',
    },
  ];
  return {
    id: 'discovery',
    title: `4. Tool discovery with ${TOOL_COUNT} tools in tools/`,
    rows,
    data: { protocol, toolCount: TOOL_COUNT, cold, warm, third, baseline, baselineWarm },
    notes: [
      "Time to the first model call is the host's send → the server receiving the turn's first request; counts are guest-power calls the mail host saw during the turn (host.callCounts).",
    ],
  };
};
harden(discoveryFigure);
