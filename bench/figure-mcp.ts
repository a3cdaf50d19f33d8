/**
 * Figure 7 — a warm MCP tool call (tools/mcp.ts, docs/mcp.md) beside a
 * built-in FaeTool's: `echo` of @modelcontextprotocol/server-everything,
 * started by the bridge in the bubblewrap sandbox and already answering,
 * called through E() as Fae calls a tool, against math-tool's `add` through
 * E(); median and p95 over the calls, and the first call (the server
 * started) for reference. The difference is the MCP round trip: JSON-RPC
 * over the server's stdin and stdout, and the server's own work.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { E } from '@endo/far';
import { make as makeMath } from '../tools/math.js';
import { startMcpBridge } from '../tools/mcp.js';
import { judged, type FigureResult } from './figure.js';
import { median, ms, percentile } from './stats.js';

const CALLS = 200;
/** A warm MCP call should cost no more than this (median): a few local round trips. */
const TARGET_MEDIAN_MS = 5;

const timeCalls = async (call: () => Promise<unknown>): Promise<number[]> => {
  const samples: number[] = [];
  for (let index = 0; index < CALLS; index += 1) {
    const started = performance.now();
    // One call at a time, as a turn makes them.
    await call();
    samples.push(performance.now() - started);
  }
  return samples;
};

export const mcpFigure = async (): Promise<FigureResult> => {
  const require = createRequire(import.meta.url);
  const server = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const cwd = mkdtempSync(path.join(tmpdir(), 'lal-fae-bench-mcp-'));
  const logs: string[] = [];
  const { bridge, connection } = startMcpBridge(
    harden({
      MCP_NAME: 'bench',
      MCP_COMMAND: process.execPath,
      MCP_ARGS: JSON.stringify([server, 'stdio']),
      MCP_CWD: cwd,
    }),
    line => logs.push(line),
  );
  try {
    const firstStarted = performance.now();
    const echo = await E(bridge).tool('echo');
    await E(echo).execute({ message: 'first' });
    const firstMs = performance.now() - firstStarted;
    const sandbox =
      logs.find(line => line.includes('sandbox:'))?.replace(/.*sandbox: (.*)\)$/, '$1') ?? '?';
    const mcp = await timeCalls(() => E(echo).execute({ message: 'ping' }));
    const math = makeMath();
    const builtin = await timeCalls(() => E(math).execute({ operation: 'add', a: 2, b: 3 }));
    const mcpMedian = median(mcp);
    return {
      id: 'mcp',
      title: '7. A warm MCP tool call beside a built-in FaeTool (through E(), one at a time)',
      rows: [
        {
          label: `MCP echo, warm (server-everything, sandbox: ${sandbox})`,
          measured: `median ${ms(mcpMedian)}, p95 ${ms(percentile(mcp, 95))}`,
          target: `median ≤ ${TARGET_MEDIAN_MS} ms`,
          verdict: judged(mcpMedian <= TARGET_MEDIAN_MS),
        },
        {
          label: 'built-in FaeTool (math-tool add)',
          measured: `median ${ms(median(builtin))}, p95 ${ms(percentile(builtin, 95))}`,
          target: '',
          verdict: 'info',
        },
        {
          label: 'MCP first call (server started, tools listed)',
          measured: ms(firstMs),
          target: '',
          verdict: 'info',
        },
      ],
      data: { calls: CALLS, mcp, builtin, firstMs, sandbox },
      notes: [
        `${CALLS} calls each; the MCP call adds a JSON-RPC round trip over the server's stdio and the server's own work.`,
      ],
    };
  } finally {
    await connection.close();
    rmSync(cwd, { recursive: true, force: true });
  }
};
harden(mcpFigure);
