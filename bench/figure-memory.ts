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

const growthOf = (run: ConversationRun) => {
  const at = (exchanges: number) => run.heap.find(checkpoint => checkpoint.exchanges === exchanges);
  const early = at(100);
  const late = at(run.exchanges);
  const growth =
    early !== undefined && late !== undefined
      ? late.heapUsedBytes - early.heapUsedBytes
      : Number.NaN;
  return {
    start: at(0),
    early,
    late,
    growth,
    perExchange: growth / Math.max(1, run.exchanges - 100),
  };
};

const describeGrowth = (growth: number, perExchange: number) =>
  `${growth >= 0 ? '+' : ''}${mb(growth)} (${(perExchange / 1024).toFixed(2)} KB per exchange)`;

/**
 * What the guest's store holds grows with the conversation by design (the
 * searchable history, bounded by LAL_HISTORY_MB): the daemon keeps it on
 * disk, the mail host in this heap. Its growth, in characters (one byte each
 * in V8's one-byte strings: the bench's exchanges are ASCII), is taken from
 * the heap's before judging the agent's own.
 */
const storeGrowthOf = (own: ReturnType<typeof growthOf>) =>
  (own.late?.storeHeldChars ?? Number.NaN) - (own.early?.storeHeldChars ?? Number.NaN);

const ownRows = (
  own: ReturnType<typeof growthOf>,
  exchanges: number,
  afterGc: boolean,
): FigureRow[] => {
  const store = storeGrowthOf(own);
  const agentGrowth = own.growth - store;
  const perExchange = (bytes: number) => bytes / Math.max(1, exchanges - 100);
  return [
    {
      label: `growth 100 → ${exchanges} without CapTP (agent and mail host)`,
      measured: describeGrowth(own.growth, own.perExchange),
      target: '',
      verdict: 'info',
    },
    {
      label: "  of which the values in the guest's store (on disk in the daemon)",
      measured: describeGrowth(store, perExchange(store)),
      target: '',
      verdict: 'info',
    },
    {
      label: '  the rest: the agent and mail host themselves',
      measured: describeGrowth(agentGrowth, perExchange(agentGrowth)),
      target: `flat (< ${mb(FLAT_GROWTH_BYTES)})`,
      verdict:
        afterGc && Number.isFinite(agentGrowth) ? judged(agentGrowth < FLAT_GROWTH_BYTES) : 'info',
    },
  ];
};

/**
 * `run` is the conversation as the daemon runs it (over CapTP, without
 * gcImports); `direct` the same conversation with the agent handed the mail
 * host's objects themselves, which leaves out what the CapTP connection keeps
 * and so measures the agent's own share (judged against the target).
 */
export const memoryFigure = (run: ConversationRun, direct?: ConversationRun): FigureResult => {
  const { start, early, late, growth, perExchange } = growthOf(run);
  const own = direct === undefined ? undefined : growthOf(direct);
  const afterGc =
    run.heap.every(checkpoint => checkpoint.afterGc) &&
    (direct?.heap.every(checkpoint => checkpoint.afterGc) ?? true);
  const rows: FigureRow[] = [
    {
      label: 'heap used at start',
      measured: start ? mb(start.heapUsedBytes) : 'n/a',
      target: '',
      verdict: 'info',
    },
    {
      label: 'heap used after 100 exchanges',
      measured: early ? mb(early.heapUsedBytes) : 'n/a',
      target: '',
      verdict: 'info',
    },
    {
      label: `heap used after ${run.exchanges} exchanges`,
      measured: late ? mb(late.heapUsedBytes) : 'n/a',
      target: '',
      verdict: 'info',
    },
    own === undefined
      ? {
          label: `growth 100 → ${run.exchanges}`,
          measured: describeGrowth(growth, perExchange),
          target: `flat (< ${mb(FLAT_GROWTH_BYTES)})`,
          verdict: afterGc ? judged(growth < FLAT_GROWTH_BYTES) : 'info',
        }
      : {
          label: `growth 100 → ${run.exchanges} over CapTP (the connection's tables included)`,
          measured: describeGrowth(growth, perExchange),
          target: '',
          verdict: 'info',
        },
    ...(own === undefined ? [] : ownRows(own, direct!.exchanges, afterGc)),
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
    data: {
      protocol: run.protocol,
      checkpoints: run.heap,
      growthBytes: growth,
      perExchangeBytes: perExchange,
      ...(own === undefined
        ? {}
        : {
            directCheckpoints: direct!.heap,
            directGrowthBytes: own.growth,
            directPerExchangeBytes: own.perExchange,
            directStoreGrowthChars: storeGrowthOf(own),
          }),
      afterGc,
      wallMs: run.wallMs,
    },
    notes: [
      ...(afterGc
        ? []
        : ['global.gc was not available, so the heap figures include garbage and are not judged.']),
      'The heap is the whole process (agent, mail host, model server double). A memory snapshot the agent replaces with storeValue is collected, as the daemon collects an unnamed formula.',
      // Measured with heap snapshots (200 vs 600 exchanges): nearly all of the growth is these tables.
      "What grows per exchange over CapTP is the worker's connection (heap-snapshot retainer paths): without gcImports, as the daemon keeps it, every question's settled promise stays in the agent's import table, holding its answer (each iterator next() holds a whole message record with its Dismisser); and @endo/captp 4.5.1 never deletes the answering side's entries (CTP_DROP for q-N deletes key q+N), so the mail host keeps every answer too. Measured on 400 exchanges: ~21 KB per exchange as the daemon runs it, ~9 KB with gcImports on both sides, ~4 KB with no CapTP at all. The last row measures the agent without the connection.",
      "Without CapTP (heap snapshots at 100 and 1,000 exchanges, compared by constructor and retainer path): what still grows is the engine's optimized code and its deoptimization data for functions that turn hot late; the agent's memory is bounded (the usage ledger keeps the last hour by the minute, handled ids are capped), the searchable history is in the guest's store (counted apart: the daemon keeps it on disk), and abort signals held by undici's request finalizer go once its callbacks run (each reading lets them run).",
    ],
  };
};
harden(memoryFigure);
