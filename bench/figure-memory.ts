/**
 * Figure 5 — memory over a long conversation: heap used (after a full GC
 * when node runs with --expose-gc, which bench/run.ts arranges) after 100
 * and 1,000 exchanges, and the growth between them. The heap holds the
 * whole process: agent, mail host and model server double; the bench drops
 * its own records and the server's request log between exchanges, and the
 * server's prompt cache before each reading (its size is shown apart).
 */
import type { ConversationRun } from './run-conversation.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import { mb } from './stats.js';
import { PROMPT_CACHE_ENTRIES } from '../sim/model-server/prompt-cache.js';

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

const signedMb = (bytes: number) =>
  `${bytes >= 0 ? '+' : '−'}${(Math.abs(bytes) / (1024 * 1024)).toFixed(2)} MB`;

/**
 * V8's compiled code over the same span (v8.getHeapCodeStatistics): machine
 * code with its relocation and deoptimization data grows as functions turn
 * hot and are optimized; bytecode of functions not run for a while is
 * flushed. Part of "the rest", shown so that a reader sees the engine's share.
 */
const codeRow = (own: ReturnType<typeof growthOf>, exchanges: number): FigureRow => {
  const machine = (own.late?.codeBytes ?? Number.NaN) - (own.early?.codeBytes ?? Number.NaN);
  const bytecode =
    (own.late?.bytecodeBytes ?? Number.NaN) - (own.early?.bytecodeBytes ?? Number.NaN);
  const both = machine + bytecode;
  return {
    label: "    of which V8's compiled code (getHeapCodeStatistics)",
    measured: `${describeGrowth(both, both / Math.max(1, exchanges - 100))}: machine code ${signedMb(machine)}, bytecode ${signedMb(bytecode)}`,
    target: '',
    verdict: 'info',
  };
};

/** What the model server double's prompt cache held when emptied before the readings at 100 and at the end. */
const promptCacheRow = (run: ConversationRun): FigureRow => {
  const { early, late } = growthOf(run);
  return {
    label: `model server double's prompt cache, emptied before each reading (at 100 / ${run.exchanges})`,
    measured: `${early?.promptCachePrefixes ?? 'n/a'} / ${late?.promptCachePrefixes ?? 'n/a'} prefixes (at most ${PROMPT_CACHE_ENTRIES})`,
    target: '',
    verdict: 'info',
  };
};

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
    codeRow(own, exchanges),
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
    promptCacheRow(direct ?? run),
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
      `The heap is the whole process (agent, mail host, model server double). A memory snapshot the agent replaces with storeValue is collected, as the daemon collects an unnamed formula. Not counted since 2026-11-25: the double's prompt cache (at most ${PROMPT_CACHE_ENTRIES} prefixes, 0.42 MB when full, filled over the first ~1,000 exchanges), emptied before each reading; the bench's own request sizes (169 bytes an exchange), which the run without CapTP does not keep; and abort signals undici's request finalizer still held, up to 0.5 MB, now that each reading waits 50 ms for finalizers before its last GC.`,
      // Measured with heap snapshots (200 vs 600 exchanges): nearly all of the growth is these tables.
      "What grows per exchange over CapTP is the worker's connection (heap-snapshot retainer paths): without gcImports, as the daemon keeps it, every question's settled promise stays in the agent's import table, holding its answer (each iterator next() holds a whole message record with its Dismisser); and @endo/captp 4.5.1 never deletes the answering side's entries (CTP_DROP for q-N deletes key q+N), so the mail host keeps every answer too. Measured on 400 exchanges: ~21 KB per exchange as the daemon runs it, ~9 KB with gcImports on both sides, ~4 KB with no CapTP at all. The last row measures the agent without the connection.",
      // Heap snapshots (node:v8 writeHeapSnapshot) at these readings, self sizes summed by node type and name, 2026-11-25.
      "Without CapTP, heap snapshots of this conversation as the bench runs it (BENCH_EXCHANGES=5000, readings added at 1,000 and 3,000), self sizes at 100 / 1,000 / 3,000 / 5,000 exchanges: V8's machine code with relocation info 3.34 / 4.19 / 4.66 / 4.68 MB and its deoptimization data 0.44 / 0.89 / 1.15 / 1.16; bytecode 1.43 / 1.47 / 1.32 / 1.32 (flushed for functions unused a while); function infos, type feedback and dependent-code lists 3.58 / 3.66 / 3.72 / 3.74; the guest's store 0.03 / 0.13 / 0.37 / 0.58; weak collections' hash tables (capacity, sized by the CapTP run before) 25.82 / 25.87 / 25.87 / 25.87; all else, the objects, closures, strings and arrays of the agent, mail host, double and SDKs, 18.17 / 18.23 / 18.24 / 18.25. Of the growth (+1.63 / +2.50 / +2.80 MB) the engine's code is +1.42 / +2.04 / +2.11 (functions turning hot late, then optimized), levelling off after 3,000; the store +0.10 / +0.34 / +0.56; all the rest +0.11 / +0.12 / +0.13. The agent's memory is bounded (the usage ledger keeps the last hour by the minute, handled ids are capped). The row for V8's compiled code (getHeapCodeStatistics) counts less than these categories.",
    ],
  };
};
harden(memoryFigure);
