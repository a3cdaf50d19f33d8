/**
 * `npm run bench`'s figures (./run.ts lists them), loaded by ./run.ts once its command line and
 * settings are read: `--help` and a wrong setting are answered without loading them.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { FigureResult } from './figure.js';
import { machineInfo } from './machine-info.js';
import { formatTable, progress, stepLine, writeResults } from './report.js';
import { modelCallsFigure } from './figure-model-calls.js';
import { runConversation } from './run-conversation.js';
import { requestSizeFigure } from './figure-request-size.js';
import { memoryFigure } from './figure-memory.js';
import { overheadFigure } from './figure-overhead.js';
import { discoveryFigure } from './figure-discovery.js';
import { promptEconomyFigure, runEconomy } from './figure-prompt-economy.js';
import { startQwenTokenizer, type QwenTokenizer } from './qwen-tokenizer.js';
import { mcpFigure } from './figure-mcp.js';
import { recallFigure, runRecallFigure } from './figure-recall.js';
import { hostWaitFigure, runHostWait, runThreads, threadsFigure } from './figure-among-others.js';
import { approvalsFigure } from './figure-approvals.js';
import { schedulesFigure } from './figure-schedules.js';
import { toolboxFigure } from './figure-toolbox.js';
import { delegationFigure } from './figure-delegation.js';
import { realDaemonFigure } from './figure-real-daemon.js';
import { channelsFigure } from './figure-channels.js';
import { quietConsole } from '../sim/chat/quiet-console.js';
import type { BenchSettings, SingleFigure } from './bench-settings.js';

const RESULTS_FILE = new URL('../../bench-results/latest.json', import.meta.url);

/** The same conversation with the mail host's objects handed over directly: the agent's own memory, without CapTP. */
const runDirectConversation = (exchanges: number) =>
  runConversation({
    protocol: 'openai',
    exchanges,
    checkpoints: [100, exchanges],
    connection: 'direct',
    keepSizes: false,
  });

const withTokenizer = async (figure: (tokenizer: QwenTokenizer) => Promise<FigureResult>) => {
  const tokenizer = await startQwenTokenizer();
  try {
    return await figure(tokenizer);
  } finally {
    tokenizer.close();
  }
};

const economy = async () => {
  const tokenizer = await startQwenTokenizer();
  try {
    return promptEconomyFigure([
      await runEconomy(tokenizer, 'lal'),
      await runEconomy(tokenizer, 'fae'),
    ]);
  } finally {
    tokenizer.close();
  }
};

/** BENCH_ONLY: one figure, alone. */
const singleFigure = async (only: SingleFigure, exchanges: number): Promise<FigureResult> => {
  switch (only) {
    case 'economy':
      return economy();
    case 'mcp':
      return mcpFigure();
    case 'recall':
      return recallFigure(await runRecallFigure());
    case 'threads':
      return threadsFigure(await runThreads());
    case 'host-wait':
      return hostWaitFigure(await runHostWait());
    case 'modelCalls':
      return modelCallsFigure('openai');
    case 'overhead':
      return overheadFigure(['openai', 'ollama']);
    case 'discovery':
      return discoveryFigure('openai');
    case 'approvals':
      return approvalsFigure();
    case 'schedules':
      return schedulesFigure();
    case 'toolbox':
      return withTokenizer(toolboxFigure);
    case 'delegation':
      return delegationFigure();
    case 'realDaemon':
      return realDaemonFigure();
    case 'channels':
      return channelsFigure();
    case 'memory': {
      const conversation = await runConversation({
        protocol: 'openai',
        exchanges,
        checkpoints: [100, exchanges],
      });
      return memoryFigure(conversation, await runDirectConversation(exchanges));
    }
    default:
      throw Error(`no figure ${String(only satisfies never)}`);
  }
};

/** Every figure (or BENCH_ONLY's alone), printed as one table and written to bench-results/latest.json. */
export const runFigures = async ({ exchanges, only }: BenchSettings): Promise<void> => {
  // The agent's remote calls reject on purpose; @endo/marshal's report of each would bury the table.
  quietConsole();
  const started = performance.now();
  const figures: FigureResult[] = [];
  if (only !== undefined) {
    figures.push(await singleFigure(only, exchanges));
    process.stdout.write(`${formatTable(figures, machineInfo(), performance.now() - started)}\n`);
    return;
  }
  progress(stepLine([1], 'model calls per message'));
  figures.push(await modelCallsFigure('openai'));
  progress(stepLine([3], 'overhead per turn (openai, ollama)'));
  const overhead = await overheadFigure(['openai', 'ollama']);
  progress(stepLine([4], 'tool discovery'));
  const discovery = await discoveryFigure('openai');
  progress(stepLine([2, 5], `a conversation of ${exchanges} exchanges (request size, memory)`));
  const conversation = await runConversation({
    protocol: 'openai',
    exchanges,
    checkpoints: [100, 200, 500, exchanges],
  });
  figures.push(requestSizeFigure(conversation), overhead, discovery);
  progress(stepLine([5], "again, the agent given the mail host's objects directly (no CapTP)"));
  const direct = await runDirectConversation(exchanges);
  figures.push(memoryFigure(conversation, direct));
  progress(stepLine([6], 'prompt size and prefix reuse (real tokenizer), lal and fae'));
  figures.push(await economy());
  progress(stepLine([7], 'a warm MCP tool call beside a built-in one'));
  figures.push(await mcpFigure());
  progress(stepLine([8], 'recall of five facts after 150 and 1,000 exchanges, store writes'));
  figures.push(recallFigure(await runRecallFigure()));
  progress(
    stepLine([9, 10], 'among others: prefix reuse per thread, the HOST waiting behind a flood'),
  );
  figures.push(threadsFigure(await runThreads()), hostWaitFigure(await runHostWait()));
  progress(stepLine([11], 'the approvals the taint rule adds over a typical workload'));
  figures.push(await approvalsFigure());
  progress(stepLine([12], 'model calls over a simulated day of schedules'));
  figures.push(await schedulesFigure());
  progress(stepLine([13], 'the toolbox: first requests, search, prefix reuse, MCP servers'));
  figures.push(await withTokenizer(toolboxFigure));
  progress(stepLine([14], 'delegation: 6 × 7 done directly and through a helper'));
  figures.push(await delegationFigure());
  progress(
    stepLine([15], 'daemon calls before the model call of a ping; against an echo; progress'),
  );
  figures.push(await realDaemonFigure());
  figures.push(await channelsFigure());
  const wallMs = performance.now() - started;
  const machine = machineInfo();
  process.stdout.write(`${formatTable(figures, machine, wallMs)}\n`);
  await writeResults(RESULTS_FILE, figures, machine, wallMs);
  progress(`figures written to ${fileURLToPath(RESULTS_FILE)}`);
};
harden(runFigures);
