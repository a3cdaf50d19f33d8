/**
 * Figure 5 — memory over a long conversation: heap used (after a full GC
 * when node runs with --expose-gc, which bench/run.ts arranges) after 100
 * and 1,000 exchanges, and the growth between them. The heap holds the
 * whole process: agent, mail host and model server double; the bench drops
 * its own records and the server's request log between exchanges.
 */
import type { ConversationRun } from './run-conversation.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import { mb } from './stats.js';

// "Flat": what 900 more exchanges may add. A conversation bounded by the
// context budget holds at most a few hundred KB of text; 2 MB leaves room
// for the engine's own caches while catching anything that grows per message.
const FLAT_GROWTH_BYTES = 2 * 1024 * 1024;

export const memoryFigure = (run: ConversationRun): FigureResult => {
  const at = (exchanges: number) => run.heap.find(checkpoint => checkpoint.exchanges === exchanges);
  const start = at(0);
  const early = at(100);
  const late = at(run.exchanges);
  const growth = early !== undefined && late !== undefined ? late.heapUsedBytes - early.heapUsedBytes : Number.NaN;
  const perExchange = growth / Math.max(1, run.exchanges - 100);
  const afterGc = run.heap.every(checkpoint => checkpoint.afterGc);
  const rows: FigureRow[] = [
    { label: 'heap used at start', measured: start ? mb(start.heapUsedBytes) : 'n/a', target: '', verdict: 'info' },
    { label: 'heap used after 100 exchanges', measured: early ? mb(early.heapUsedBytes) : 'n/a', target: '', verdict: 'info' },
    { label: `heap used after ${run.exchanges} exchanges`, measured: late ? mb(late.heapUsedBytes) : 'n/a', target: '', verdict: 'info' },
    {
      label: `growth 100 → ${run.exchanges}`,
      measured: `${growth >= 0 ? '+' : ''}${mb(growth)} (${(perExchange / 1024).toFixed(2)} KB per exchange)`,
      target: `flat (< ${mb(FLAT_GROWTH_BYTES)})`,
      verdict: afterGc ? judged(growth < FLAT_GROWTH_BYTES) : 'info',
    },
    {
      label: `memory the agent stores per message (at 100 / ${run.exchanges})`,
      measured: `${early?.storedMemoryChars ?? 'n/a'} / ${late?.storedMemoryChars ?? 'n/a'} chars of JSON`,
      target: '',
      verdict: 'info',
    },
    {
      label: 'conversation rate',
      measured: `${run.exchangesPerSecond.toFixed(0)} exchanges/s (${(run.wallMs / 1000).toFixed(1)} s for ${run.exchanges})`,
      target: '',
      verdict: 'info',
    },
  ];
  return {
    id: 'memory',
    title: '5. Memory over a conversation',
    rows,
    data: { protocol: run.protocol, checkpoints: run.heap, growthBytes: growth, perExchangeBytes: perExchange, afterGc, wallMs: run.wallMs },
    notes: [
      ...(afterGc ? [] : ['global.gc was not available, so the heap figures include garbage and are not judged.']),
      'The heap is the whole process (agent, mail host, model server double). A memory snapshot the agent replaces with storeValue is collected, as the daemon collects an unnamed formula.',
      // Measured with heap snapshots (200 vs 600 exchanges): nearly all of the growth is these tables.
      "What grows per exchange is the worker's CapTP connection, kept without gcImports as the daemon keeps it: the agent's 7 questions (2 iterator next(), 2 dismiss, reply, storeValue, the tools/ check) each leave an answer on the mail host's side and a settled question on the agent's, and the 2 message records each leave an imported dismisser and dismissed promise.",
    ],
  };
};
