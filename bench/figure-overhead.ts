/**
 * Figure 3 — the agent's overhead per turn: wall time minus time spent
 * inside the model server, over 100 ping/pong turns after a warm-up, per
 * provider protocol. "Turn" is the host's send → the agent's turn-end event
 * (both model calls, the reply delivered); "whole message" runs on to the
 * agent's memory write, the last thing it does for a message. The breakdown
 * splits the turn into the model round trips outside the server (provider
 * SDK + HTTP), the tool calls (guest powers through the mail host), and the
 * rest (mail delivery, notice, tool discovery, history, dismissals).
 */
import type { ModelProtocol } from '../sim/model-server/index.js';
import { startBenchAgent, type Exchange } from './bench-agent.js';
import { providerCallSamples } from './provider-baseline.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import { median, ms, percentile } from './stats.js';

const TARGET_MEDIAN_MS = 5;
const WARMUP = 20;
const TURNS = 100;

interface Spread {
  median: number;
  p95: number;
}

const spread = (samples: number[]): Spread => ({
  median: median(samples),
  p95: percentile(samples, 95),
});
const show = ({ median: middle, p95 }: Spread) => `median ${ms(middle)}, p95 ${ms(p95)}`;

const measureTurns = async (protocol: ModelProtocol): Promise<Exchange[]> => {
  const agent = await startBenchAgent({ persona: 'lal', protocol });
  const measured: Exchange[] = [];
  try {
    for (let index = 0; index < WARMUP + TURNS; index += 1) {
      const exchange = await agent.exchange(`ping ${index}`);
      if (index >= WARMUP) measured.push(exchange);
      await agent.forget();
    }
  } finally {
    await agent.stop();
  }
  return measured;
};

export const overheadFigure = async (
  protocols: readonly ModelProtocol[],
): Promise<FigureResult> => {
  const rows: FigureRow[] = [];
  const data: Record<string, unknown> = {
    warmup: WARMUP,
    turns: TURNS,
    targetMedianMs: TARGET_MEDIAN_MS,
  };
  for (const [position, protocol] of protocols.entries()) {
    const turns = await measureTurns(protocol);
    const turn = spread(turns.map(each => each.turnEndAt - each.sentAt - each.insideServerMs));
    const whole = spread(turns.map(each => each.savedAt - each.sentAt - each.insideServerMs));
    const inside = spread(turns.map(each => each.insideServerMs));
    const model = spread(turns.map(each => each.modelRoundTripMs - each.insideServerMs));
    const tools = spread(turns.map(each => each.toolCallMs));
    const rest = spread(
      turns.map(each => each.turnEndAt - each.sentAt - each.modelRoundTripMs - each.toolCallMs),
    );
    const toFirstCall = spread(turns.map(each => each.firstRequestAt - each.sentAt));
    const provider = spread(await providerCallSamples(protocol, TURNS, WARMUP));
    const primary = position === 0;
    rows.push(
      {
        label: `turn overhead, ${protocol} (send → turn-end − server)`,
        measured: show(turn),
        target: `median ≤ ${TARGET_MEDIAN_MS} ms`,
        verdict: judged(turn.median <= TARGET_MEDIAN_MS),
      },
      {
        label: `  whole message (send → memory saved − server)`,
        measured: show(whole),
        target: '',
        verdict: 'info',
      },
      {
        label: `  of which model calls outside server (SDK+HTTP)`,
        measured: show(model),
        target: '',
        verdict: 'info',
      },
      {
        label: `  of which tool calls via mail host`,
        measured: show(tools),
        target: '',
        verdict: 'info',
      },
      {
        label: `  of which the rest (mail, notice, tools/, history)`,
        measured: show(rest),
        target: '',
        verdict: 'info',
      },
      {
        label: `  send → first model request at server`,
        measured: show(toFirstCall),
        target: '',
        verdict: 'info',
      },
      {
        label: `  one provider.chat alone, outside server`,
        measured: show(provider),
        target: '',
        verdict: 'info',
      },
      {
        label: `  time inside the model server per turn`,
        measured: show(inside),
        target: '',
        verdict: 'info',
      },
    );
    data[protocol] = {
      turn,
      whole,
      modelOutsideServer: model,
      toolCalls: tools,
      rest,
      sendToFirstRequest: toFirstCall,
      providerChatAlone: provider,
      insideServer: inside,
      primary,
    };
  }
  return {
    id: 'overhead',
    title: '3. Agent overhead per turn',
    rows,
    data,
    notes: [
      `${TURNS} ping/pong turns after ${WARMUP} warm-up turns, persona lal, one agent per protocol; all in one process (agent, mail host, server), clock performance.now().`,
    ],
  };
};
harden(overheadFigure);
