/**
 * Figure 8 — recall over a long conversation (issue 24): five facts (a vault
 * code, a surname, a door number, an invoice number, a meeting time) are
 * stated once each in the middle of a ping/pong conversation of 150 and of
 * 1,000 exchanges, then asked for. The scripted model answers each question
 * as a model that knows the `recall` op would: it calls `mail` with op
 * `recall` and the question as the query, then replies with what came back.
 * Measured: the facts in the answers, the facts the request held before
 * recall (what the digest alone gives the model), the largest request of
 * those turns against the context budget, and the bytes the agent writes to
 * its store per exchange (memory and history), early and late, counted by the
 * daemon double.
 */
import { STATE_DIRECTORY } from '../src/daemon/own-names.js';
import { E } from '@endo/far';
import type { NormalizedRequest } from '../sim/model-server/index.js';
import { startBenchAgent } from './bench-agent.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import { DEFAULT_CONTEXT_TOKENS } from '../providers/config.js';
import { callTool, latestNoticeNumber, type ModelStep } from './scripted-model.js';
import { kb } from './stats.js';

const FACTS = [
  {
    statement: 'Please remember: the vault code is 4711-XQ.',
    question: 'What is the vault code?',
    value: '4711-XQ',
  },
  {
    statement: 'For your records, my surname is Okonkwo.',
    question: 'What is my surname?',
    value: 'Okonkwo',
  },
  {
    statement: 'The parcel goes to door number 12B.',
    question: 'Which door number does the parcel go to?',
    value: '12B',
  },
  {
    statement: 'The invoice to pay is INV-20931.',
    question: 'Which invoice is to pay?',
    value: 'INV-20931',
  },
  {
    statement: 'The meeting with Dana is at 14:30 on Thursday.',
    question: 'When is the meeting with Dana?',
    value: '14:30',
  },
] as const;

const LENGTHS = [150, 1000] as const;
// Late bytes per exchange may exceed early ones by this much and still be flat (the open chunk fills and empties).
const FLAT_FACTOR = 1.25;
// The open chunk is closed at 8 KiB, and its last exchange may take it some 6 KB past that.
const CHUNK_BOUND = 8 * 1024 + 6_000;

interface Written {
  memory: number;
  history: number;
}

export interface RecallRun {
  exchanges: number;
  recalled: number;
  inRequestBefore: number;
  /** The largest request of the question turns, and the agent's estimate of it. */
  largestBytes: number;
  largestEstimate: number;
  /** Time of the recall tool call, per question (tool-call → tool-result). */
  recallMs: number[];
  perExchange: Written[];
  historyBytes: number;
}

const textOf = (request: NormalizedRequest) => request.messages.map(m => m.text).join('\n');

const positionsOf = (exchanges: number) =>
  // Spread over the middle third: none among the digest's first lines or the latest turns.
  FACTS.map((_, index) => Math.round(exchanges * (1 / 3 + (index / FACTS.length) * (1 / 3))));

const runRecall = async (exchanges: number): Promise<RecallRun> => {
  const agent = await startBenchAgent({ persona: 'lal' });
  const stored = () => agent.host.storedBytes(agent.name);
  const perExchange: Written[] = [];
  const positions = positionsOf(exchanges);
  const measured = async (send: () => Promise<unknown>) => {
    const before = stored();
    const exchange = await send();
    const after = stored();
    perExchange.push({
      memory: (after[STATE_DIRECTORY] ?? 0) - (before[STATE_DIRECTORY] ?? 0),
      history: (after['agent-history'] ?? 0) - (before['agent-history'] ?? 0),
    });
    return exchange;
  };
  try {
    for (let index = 1; index <= exchanges; index += 1) {
      const fact = positions.indexOf(index);

      await measured(() => agent.exchange(fact < 0 ? `ping ${index}` : FACTS[fact]!.statement));

      await agent.forget();
    }
    let recalled = 0;
    let inRequestBefore = 0;
    let largestBytes = 0;
    let largestEstimate = 0;
    const recallMs: number[] = [];
    for (const fact of FACTS) {
      let answer = '';
      let before = '';
      const ask: ModelStep = request => {
        before = textOf(request);
        return callTool('mail', {
          op: 'recall',
          query: fact.question,
          messageNumber: latestNoticeNumber(request),
        });
      };
      const tell: ModelStep = request => {
        answer = request.messages.at(-1)?.role === 'tool' ? request.messages.at(-1)!.text : '';
        return callTool('reply', {
          messageNumber: latestNoticeNumber(request),
          strings: [answer],
        });
      };
      agent.model.push(ask, tell);

      const exchange = await agent.exchange(fact.question);
      if (answer.includes(fact.value)) recalled += 1;
      if (before.includes(fact.value)) inRequestBefore += 1;
      exchange.requestBytes.forEach((bytes, index) => {
        if (bytes > largestBytes) {
          largestBytes = bytes;
          largestEstimate = exchange.estimatedTokens[index] ?? Number.NaN;
        }
      });
      const call = exchange.events.find(timed => timed.event.kind === 'tool-call');
      const result = exchange.events.find(timed => timed.event.kind === 'tool-result');
      if (call !== undefined && result !== undefined) recallMs.push(result.at - call.at);

      await agent.forget();
    }
    const names = (await E(agent.host.guest(agent.name).powers).list('agent-history')) as string[];
    const historyBytes = names.reduce(
      (sum, name) => sum + Number(/^c\d+-(\d+)$/.exec(name)?.[1] ?? 0),
      0,
    );
    return {
      exchanges,
      recalled,
      inRequestBefore,
      largestBytes,
      largestEstimate,
      recallMs,
      perExchange,
      historyBytes,
    };
  } finally {
    await agent.stop();
  }
};

const meanOf = (written: readonly Written[]) =>
  written.reduce((sum, turn) => sum + turn.memory + turn.history, 0) / Math.max(1, written.length);

export const runRecallFigure = async (): Promise<RecallRun[]> => {
  const runs: RecallRun[] = [];
  for (const exchanges of LENGTHS) {
    runs.push(await runRecall(exchanges));
  }
  return runs;
};
harden(runRecallFigure);

export const recallFigure = (runs: readonly RecallRun[]): FigureResult => {
  const rows: FigureRow[] = runs.flatMap(run => [
    {
      label: `facts recalled after ${run.exchanges} exchanges`,
      measured: `${run.recalled} of ${FACTS.length} (${run.inRequestBefore} of ${FACTS.length} in the request before recall)`,
      target: `all ${FACTS.length} (the digest alone: 2 of 5 at 150, issue 24)`,
      verdict: judged(run.recalled === FACTS.length),
    },
    {
      label: `  largest request of those turns (${run.exchanges})`,
      measured: `${kb(run.largestBytes)} (~${run.largestEstimate} tok est.); recall took ${run.recallMs.map(ms => ms.toFixed(0)).join(', ')} ms`,
      target: `≤ budget ${DEFAULT_CONTEXT_TOKENS} tokens`,
      verdict: judged(
        run.largestEstimate <= DEFAULT_CONTEXT_TOKENS &&
          run.largestBytes / 4 <= DEFAULT_CONTEXT_TOKENS,
      ),
    },
  ]);
  const long = runs.at(-1)!;
  // After the 300th the memory's bounded parts are full (the digest, 256 handled ids): what grows after that would grow for ever.
  const early = meanOf(long.perExchange.slice(300, 400));
  const late = meanOf(long.perExchange.slice(-100));
  const largestHistoryWrite = Math.max(...long.perExchange.map(turn => turn.history));
  const largestMemoryWrite = Math.max(...long.perExchange.map(turn => turn.memory));
  rows.push(
    {
      label: `store bytes per exchange, 301st–400th / last 100 of ${long.exchanges}`,
      measured: `${kb(early)} / ${kb(late)} (memory and history; ${(late / early).toFixed(2)}×)`,
      target: `flat (≤ ${FLAT_FACTOR}×)`,
      verdict: judged(late <= early * FLAT_FACTOR),
    },
    {
      label: '  largest write of one exchange',
      measured: `history ${kb(largestHistoryWrite)}, memory ${kb(largestMemoryWrite)}`,
      target: `history bounded (≤ ${kb(CHUNK_BOUND)}: one chunk)`,
      verdict: judged(largestHistoryWrite <= CHUNK_BOUND),
    },
    {
      label: `  history kept after ${long.exchanges} exchanges`,
      measured: `${kb(long.historyBytes)} in closed chunks`,
      target: 'every exchange (within LAL_HISTORY_MB, 16 MB)',
      verdict: 'info',
    },
  );
  return {
    id: 'recall',
    title: '8. Recall over a long conversation',
    rows,
    data: {
      runs: runs.map(({ perExchange, ...rest }) => ({
        ...rest,
        // Every 10th exchange's writes, for plotting.
        written: perExchange.filter((_, index) => index % 10 === 0),
      })),
      earlyBytesPerExchange: early,
      lateBytesPerExchange: late,
    },
    notes: [
      `Five facts stated once each between the 1/3 and 2/3 marks of a ping/pong conversation, then asked for; the scripted model calls mail recall with the question as the query and replies with its result. "In the request before recall": the facts the digest and the kept turns still held when the question came.`,
      "Bytes are what storeValue received in the daemon double, per exchange: the memory (rewritten whole each time, bounded by the digest, the kept turns, the handled ids and the history's open chunk, which it carries) and the history's closed chunks (each written once, when the open one reaches 8 KiB).",
    ],
  };
};
harden(recallFigure);
