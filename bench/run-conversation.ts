/**
 * One long ping/pong conversation with one agent, the raw material of the
 * request-size figure (its first exchanges) and the memory figure (heap at
 * checkpoints). Between exchanges the bench drops what it and the doubles
 * keep per message (HOST's inbox, the server's request log), and before each
 * heap reading the model server double's prompt cache, so the heap measures
 * the agent and the guest's side of the mail host (a run for memory alone
 * keeps no request sizes either).
 */
import { HISTORY_DIRECTORY, MEMORY_PATH } from '../src/daemon/own-names.js';
import { E } from '@endo/far';
import { performance } from 'node:perf_hooks';
import { getHeapCodeStatistics } from 'node:v8';
import type { ModelProtocol, ModelServer } from '../sim/model-server/index.js';
import { startBenchAgent } from './bench-agent.js';
import { makeMailHost, type WorkerConnection } from '../sim/mail-host/index.js';
import type { GuestView } from '../sim/mail-host/types.js';

interface ExchangeSize {
  /** 1-based number of the exchange. */
  exchange: number;
  /** Bytes of each HTTP request body of the exchange, as the server received it. */
  requestBytes: number[];
  /** The agent's estimate (model-call event) for each request. */
  estimatedTokens: number[];
}

interface HeapCheckpoint {
  exchanges: number;
  /** Heap used, without the model server double's prompt cache (emptied first). */
  heapUsedBytes: number;
  /**
   * Prefixes the model server double's prompt cache held, emptied before the
   * reading: the double's bookkeeping, bounded (PROMPT_CACHE_ENTRIES) but
   * filling up over the first ~1,000 exchanges, is neither the agent's nor
   * the mail host's.
   */
  promptCachePrefixes: number;
  /** Whether a full GC ran right before reading (node --expose-gc). */
  afterGc: boolean;
  /** V8's machine code and its metadata (relocation, deoptimization data): v8.getHeapCodeStatistics(). */
  codeBytes: number;
  /** V8's bytecode and its metadata (constant pools, source positions, handler tables). */
  bytecodeBytes: number;
  /** JSON size of the memory the agent stores (storeValue) after every message. */
  storedMemoryChars?: number;
  /**
   * Characters of every value the guest's store holds (its memory and the
   * searchable history's chunks): the mail host keeps them in this heap,
   * where the daemon keeps them on disk.
   */
  storeHeldChars?: number;
}

export interface ConversationRun {
  protocol: ModelProtocol;
  exchanges: number;
  contextTokens: number;
  /** Sizes of every exchange (kept: two numbers per request), unless keepSizes was false. */
  sizes: ExchangeSize[];
  heap: HeapCheckpoint[];
  wallMs: number;
  exchangesPerSecond: number;
}

/** Wall time given to FinalizationRegistry callbacks before the last GC of a reading. */
const FINALIZERS_MS = 50;

const readHeap = async (exchanges: number, server: ModelServer): Promise<HeapCheckpoint> => {
  const promptCachePrefixes = server.forgetPromptCache();
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc !== undefined) {
    // Twice: the first pass can leave garbage that only a second finds (weak refs, finalizers).
    gc();
    gc();
    // Then time for V8's FinalizationRegistry cleanup task, and again: undici's
    // requestFinalizer holds each fetch's abort signal, with its listeners, until its
    // callback has run, and a zero-delay turn often came too early (up to 0.5 MB kept).
    await new Promise(resolve => setTimeout(resolve, FINALIZERS_MS));
    gc();
  }
  const code = getHeapCodeStatistics();
  return {
    exchanges,
    heapUsedBytes: process.memoryUsage().heapUsed,
    promptCachePrefixes,
    afterGc: gc !== undefined,
    codeBytes: code.code_and_metadata_size,
    bytecodeBytes: code.bytecode_and_metadata_size,
  };
};

/** Characters of the searchable history's chunks in the guest's store (src/recall/history-chunks.ts). */
const historyChars = async (powers: GuestView['powers']): Promise<number> => {
  // None before the first chunk fills: the open one is in the memory (version 11).
  if (!(await E(powers).has(HISTORY_DIRECTORY))) return 0;
  const names = await E(powers).list(HISTORY_DIRECTORY);
  let chars = 0;
  for (const name of names) {
    const chunk = await E(powers).lookup([HISTORY_DIRECTORY, name]);
    chars += typeof chunk === 'string' ? chunk.length : 0;
  }
  return chars;
};

const DEFAULT_CONTEXT_TOKENS = 24_000;

export const runConversation = async (options: {
  protocol: ModelProtocol;
  exchanges: number;
  checkpoints: readonly number[];
  contextTokens?: number;
  /** How the agent reaches the mail host: CapTP as in the daemon (default), or directly, to leave out what CapTP keeps. */
  connection?: WorkerConnection;
  /**
   * Whether to keep each exchange's request sizes (figure 2's material;
   * default true). A run that only measures memory keeps none: ~170 bytes an
   * exchange of the bench's own would count as the agent's.
   */
  keepSizes?: boolean;
}): Promise<ConversationRun> => {
  const contextTokens = options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  const agent = await startBenchAgent({
    persona: 'lal',
    protocol: options.protocol,
    ...(options.connection === undefined
      ? {}
      : { host: makeMailHost({ connection: options.connection }) }),
    ...(options.contextTokens === undefined
      ? {}
      : { env: { LAL_CONTEXT_TOKENS: String(contextTokens) } }),
  });
  const sizes: ExchangeSize[] = [];
  const heap: HeapCheckpoint[] = [await readHeap(0, agent.server)];
  const started = performance.now();
  try {
    for (let index = 1; index <= options.exchanges; index += 1) {
      const exchange = await agent.exchange(`ping ${index}`);
      if (options.keepSizes ?? true) {
        sizes.push({
          exchange: index,
          requestBytes: exchange.requestBytes,
          estimatedTokens: exchange.estimatedTokens,
        });
      }
      await agent.forget();
      if (options.checkpoints.includes(index)) {
        const powers = agent.host.guest(agent.name).powers;
        const stored: unknown = await E(powers).lookup([...MEMORY_PATH]);
        const storedMemoryChars =
          typeof stored === 'string' ? stored.length : JSON.stringify(stored).length;
        heap.push({
          ...(await readHeap(index, agent.server)),
          storedMemoryChars,
          storeHeldChars: storedMemoryChars + (await historyChars(powers)),
        });
      }
    }
  } finally {
    await agent.stop();
  }
  const wallMs = performance.now() - started;
  return {
    protocol: options.protocol,
    exchanges: options.exchanges,
    contextTokens,
    sizes,
    heap,
    wallMs,
    exchangesPerSecond: options.exchanges / (wallMs / 1000),
  };
};
harden(runConversation);
