/**
 * Figure 2 — request size over a long conversation: the HTTP body of the
 * first model request of the 1st, 40th and 200th exchange (the request that
 * carries the new message), and the largest request of the first 200 and of
 * the whole run. Tokens are the agent's own estimate (≈ characters / 4 of
 * the content it sends; the JSON framing of the wire is not counted).
 */
import type { ConversationRun } from './run-conversation.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import { kb } from './stats.js';

const GROWTH_TARGET = 1.5;
const ORIGINAL_LAL = '23 KB at the 1st, 87 KB at the 10th, 791 KB at the 40th';
const SAMPLED = [1, 40, 200] as const;

interface Sample {
  bytes: number;
  estimatedTokens: number;
}

const firstRequestOf = (run: ConversationRun, exchange: number): Sample | undefined => {
  const size = run.sizes[exchange - 1];
  if (size === undefined || size.requestBytes.length === 0) return undefined;
  return { bytes: size.requestBytes[0]!, estimatedTokens: size.estimatedTokens[0] ?? Number.NaN };
};

const largestOf = (run: ConversationRun, upTo: number): Sample & { exchange: number } => {
  let best = { bytes: 0, estimatedTokens: 0, exchange: 0 };
  for (const size of run.sizes.slice(0, upTo)) {
    size.requestBytes.forEach((bytes, index) => {
      if (bytes > best.bytes)
        best = {
          bytes,
          estimatedTokens: size.estimatedTokens[index] ?? Number.NaN,
          exchange: size.exchange,
        };
    });
  }
  return best;
};

const maxTokensOf = (run: ConversationRun, upTo: number): number =>
  Math.max(...run.sizes.slice(0, upTo).flatMap(size => size.estimatedTokens));

const describe = (sample: Sample | undefined): string =>
  sample === undefined
    ? 'n/a'
    : `${kb(sample.bytes)} (~${sample.estimatedTokens} tok est., ${Math.ceil(sample.bytes / 4)} bytes/4)`;

export const requestSizeFigure = (run: ConversationRun): FigureResult => {
  const [first, fortieth, twoHundredth] = SAMPLED.map(exchange => firstRequestOf(run, exchange));
  const window = Math.min(200, run.sizes.length);
  const largest = largestOf(run, window);
  const largestAll = largestOf(run, run.sizes.length);
  const ratio =
    first !== undefined && twoHundredth !== undefined
      ? twoHundredth.bytes / first.bytes
      : Number.NaN;
  const maxEstimate = maxTokensOf(run, run.sizes.length);
  const budget = run.contextTokens;
  const rows: FigureRow[] = [
    {
      label: '1st exchange',
      measured: describe(first),
      target: `original Lal: ${ORIGINAL_LAL}`,
      verdict: 'info',
    },
    { label: '40th exchange', measured: describe(fortieth), target: '', verdict: 'info' },
    {
      label: '200th exchange',
      measured: `${describe(twoHundredth)} = ${ratio.toFixed(2)}× the 1st`,
      target: `≤ ${GROWTH_TARGET}× the 1st`,
      verdict: judged(ratio <= GROWTH_TARGET),
    },
    {
      label: `largest of the first ${window}`,
      measured: `${describe(largest)} at exchange ${largest.exchange}`,
      target: `≤ budget ${budget} tokens (LAL_CONTEXT_TOKENS)`,
      verdict: judged(largest.estimatedTokens <= budget && largest.bytes / 4 <= budget),
    },
    {
      label: `largest of all ${run.sizes.length}`,
      measured: `${describe(largestAll)} at exchange ${largestAll.exchange}; max estimate ${maxEstimate} tok`,
      target: `≤ budget ${budget} tokens`,
      verdict: judged(maxEstimate <= budget && largestAll.bytes / 4 <= budget),
    },
  ];
  return {
    id: 'requestSize',
    title: '2. Request size over a conversation',
    rows,
    data: {
      protocol: run.protocol,
      contextTokens: budget,
      sampled: Object.fromEntries(
        SAMPLED.map((exchange, index) => [exchange, [first, fortieth, twoHundredth][index]]),
      ),
      growth200: ratio,
      largest200: largest,
      largestAll,
      maxEstimatedTokens: maxEstimate,
      // The first request of every 10th exchange, for plotting growth.
      curve: run.sizes
        .filter(size => size.exchange === 1 || size.exchange % 10 === 0)
        .map(size => [size.exchange, size.requestBytes[0]]),
      reference: ORIGINAL_LAL,
    },
    notes: [
      `Over the ${run.protocol} protocol, persona lal, ${run.sizes.length} consecutive ping/pong exchanges with one agent; the budget is judged on both the agent's estimate and the wire bytes/4.`,
    ],
  };
};
harden(requestSizeFigure);
