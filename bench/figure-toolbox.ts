/**
 * Figure 13 — the toolbox: what a Fae with many tools sends. For 0, 25, 121
 * and 500 tools in tools/ (five servers' worth of the kind MCP servers
 * offer), the tools and system prompt of the first request as the agent
 * composes them (built-ins, the tools offered directly, `toolbox` for the
 * rest), in bytes and real Qwen3 tokens; and the time to search 5,000 tools
 * (the first search, which reads every tool's words, and the next ones);
 * then the toolbox at work through make() (./figure-toolbox-run.ts).
 */
import { performance } from 'node:perf_hooks';
import type { ToolSchema } from '../providers/types.js';
import { TOOLBOX_TOOL_PARAMETERS, toolboxTools } from '../sim/toolbox-tools.js';
import { systemPrompt } from '../src/prompt/system-prompt.js';
import { BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import { schemasFor } from '../src/prompt/speak-generation.js';
import type { DynamicTool } from '../src/agent-tools/dynamic-tool.js';
import type { ToolRegistry } from '../src/agent-tools/fae-tool-registry.js';
import { makeToolbox } from '../src/toolbox/toolbox.js';
import { searchTools } from '../src/toolbox/search-tools.js';
import { readToolboxSettings } from '../src/settings/toolbox-settings.js';
import type { QwenTokenizer } from './qwen-tokenizer.js';
import { judged, type FigureResult } from './figure.js';
import { median } from './stats.js';
import { runToolbox, toolboxRunRows } from './figure-toolbox-run.js';

const COUNTS = [0, 25, 121, 500];
const SEARCHED = 5_000;

const schemasOf = (count: number): ToolSchema[] =>
  toolboxTools(count).map(({ name, description }) => ({
    type: 'function',
    function: {
      name,
      description,
      parameters: TOOLBOX_TOOL_PARAMETERS,
    },
  }));

/** A registry holding `schemas` under five sources, as tools/ would with five MCP bridges. */
const registryOf = (schemas: ToolSchema[]): ToolRegistry => {
  const byName = new Map<string, DynamicTool>(
    schemas.map(schema => [
      schema.function.name,
      {
        name: schema.function.name,
        petName: schema.function.name.split('_')[0]!,
        schema,
        tool: undefined as never,
        stoppable: false,
      },
    ]),
  );
  return {
    schemas: () => schemas,
    find: (name: string) => byName.get(name),
  } as unknown as ToolRegistry;
};

const firstRequest = async (tokenizer: QwenTokenizer, count: number) => {
  const toolbox = makeToolbox({
    registry: registryOf(schemasOf(count)),
    settings: readToolboxSettings({}, []),
  });
  const tools = [
    ...schemasFor(BUILTIN_SCHEMAS, undefined),
    ...toolbox.offer(schemas => [...schemas]),
  ];
  const text = `${systemPrompt('fae')}\n${JSON.stringify(tools)}`;
  return {
    bytes: Buffer.byteLength(text),
    tokens: await tokenizer.count(text),
    offered: tools.length,
  };
};

export const toolboxFigure = async (tokenizer: QwenTokenizer): Promise<FigureResult> => {
  const requests = [];
  for (const count of COUNTS) {
    requests.push({ count, ...(await firstRequest(tokenizer, count)) });
  }
  const empty = requests[0]!;
  const many = schemasOf(SEARCHED);
  let started = performance.now();
  searchTools(many, 'archive a spreadsheet on the shared drive');
  const coldMs = performance.now() - started;
  const warm: number[] = [];
  for (const query of [
    'create a meeting',
    'delete a bug ticket',
    'share a document',
    'list email drafts',
  ]) {
    for (let round = 0; round < 5; round += 1) {
      started = performance.now();
      searchTools(many, query);
      warm.push(performance.now() - started);
    }
  }
  const warmMs = median(warm);
  const at121 = requests.find(request => request.count === 121)!;
  const run = await runToolbox();
  return {
    id: 'toolbox',
    title: '13. The toolbox: the first request with many tools (system + tools, real Qwen3 tokens)',
    rows: [
      ...requests.map(request => ({
        label: `${request.count} tools in tools/`,
        measured: `${request.tokens} tokens, ${(request.bytes / 1024).toFixed(1)} KB, ${request.offered} tools offered`,
        target:
          request.count === 121
            ? `≤ ${((empty.bytes + 3 * 1024) / 1024).toFixed(1)} KB (the empty one + 3 KB)`
            : '',
        verdict:
          request.count === 121 ? judged(at121.bytes <= empty.bytes + 3 * 1024) : ('info' as const),
      })),
      {
        label: `search of ${SEARCHED} tools, warm (median)`,
        measured: `${warmMs.toFixed(1)} ms (first, reading every tool: ${coldMs.toFixed(0)} ms)`,
        target: '≤ 50 ms',
        verdict: judged(warmMs <= 50),
      },
      ...toolboxRunRows(run),
    ],
    data: { requests, coldMs, warmMs, run },
    notes: [
      "Tools past LAL_TOOL_BUDGET_TOKENS (1,500 by default) wait behind `toolbox`; the first search reads every tool's words once.",
      'A tool used is offered directly from the next turn of its thread that folds (rewrites the beginning anyway); until then it is called through toolbox, so the tools change only where a prompt cache had nothing to keep.',
    ],
  };
};
harden(toolboxFigure);
