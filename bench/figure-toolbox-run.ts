/**
 * Figure 13, the toolbox at work (beside the first requests of
 * ./figure-toolbox.ts), through make() against the OpenAI wire double:
 * - a Fae with 121 tools in tools/ talks 200 exchanges with its HOST; ten of
 *   them find a different tool with `toolbox` and use it, the exchange after
 *   each uses the same tool again (`toolbox {use}` until the tool is offered
 *   directly, at the thread's next fold), and the rest are pings. Measured: the bytes of each request a prefix cache can reuse from
 *   the one before (./prefix-reuse.ts), the model calls of an exchange that
 *   finds and uses a tool against one that uses it offered, and whether the
 *   search put the wanted tool first;
 * - the first request of a Fae whose tools/ holds the MCP bridges to
 *   server-everything and server-filesystem, the whole body as the server
 *   got it, against a Fae with no tools.
 */
import { E } from '@endo/far';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeMailHost, type MailHost } from '../sim/mail-host/index.js';
import { makeToolboxHost } from '../sim/toolbox-host.js';
import { toolboxTools } from '../sim/toolbox-tools.js';
import type { NormalizedRequest } from '../sim/model-server/index.js';
import { startMcpBridge } from '../tools/mcp.js';
import { startBenchAgent } from './bench-agent.js';
import { judged, type FigureRow } from './figure.js';
import { prefixTextOf, reuseOf, type Reuse } from './prefix-reuse.js';
import { callTool, latestNoticeNumber, type ModelStep } from './scripted-model.js';
import { median } from './stats.js';

const EXCHANGES = 200;
const TOOLS_USED = 10;
const TOOLS = 121;
const REUSE_TARGET = 0.9;
const EXTRA_CALLS_TARGET = 1;
const FIRST_REQUEST_TARGET_BYTES = 7 * 1024;

const lastToolText = (request: NormalizedRequest) => request.messages.at(-1)?.text ?? '';

const answer: ModelStep = request =>
  callTool('reply', { messageNumber: latestNoticeNumber(request), strings: ['done'] });

export interface ToolboxRun {
  reuse: Reuse;
  /** Requests whose tools differ from the previous request's. */
  toolsChanged: number;
  /** Model calls of each exchange that found and used a tool, and of the next (offered directly). */
  foundCalls: number[];
  offeredCalls: number[];
  /** Searches whose first result was the tool wanted. */
  foundFirst: number;
  /** Whole first request bodies (bytes): no tools, and the two MCP servers' bridges. */
  firstRequest: { empty: number; mcp: number; mcpTools: number };
}

const runConversation = async () => {
  const agent = await startBenchAgent({
    persona: 'fae',
    host: await makeToolboxHost(),
    introducedNames: { work: 'work', more: 'more' },
  });
  const wanted = toolboxTools(TOOLS)
    .filter((_, index) => index % 12 === 5)
    .slice(0, TOOLS_USED);
  const foundCalls: number[] = [];
  const offeredCalls: number[] = [];
  let foundFirst = 0;
  try {
    let next = 0;
    for (let exchange = 1; exchange <= EXCHANGES; exchange += 1) {
      const tool = exchange % 20 === 10 ? wanted[next] : undefined;
      if (tool === undefined) {
        await agent.exchange(`ping ${exchange}`);
        continue;
      }
      next += 1;
      let name = '';
      agent.model.push(
        // The model asks in its own words: the tool's description, not its name.
        () => callTool('toolbox', { find: tool.description.toLowerCase() }),
        request => {
          const found = JSON.parse(lastToolText(request)) as { found: { name: string }[] };
          name = found.found[0]?.name ?? '';
          if (name === tool.name) foundFirst += 1;
          return callTool('toolbox', { use: name, arguments: { title: `item ${exchange}` } });
        },
        answer,
      );
      foundCalls.push((await agent.exchange(tool.description)).modelCalls);
      exchange += 1;
      const title = `item ${exchange}`;
      // By its name once offered; through toolbox until then (a model held to the offered names can).
      agent.model.push(
        request =>
          request.toolNames.includes(name)
            ? callTool(name, { title })
            : callTool('toolbox', { use: name, arguments: { title } }),
        answer,
      );
      offeredCalls.push((await agent.exchange(`again: ${tool.description}`)).modelCalls);
    }
    const chats = agent.server.requests.filter(request => request.normalized !== undefined);
    const tools = chats.map(request => JSON.stringify((request.body as { tools?: unknown }).tools));
    const toolsChanged = tools.filter(
      (offer, index) => index > 0 && offer !== tools[index - 1],
    ).length;
    return {
      reuse: reuseOf(chats.map(prefixTextOf)),
      toolsChanged,
      foundCalls,
      offeredCalls,
      foundFirst,
    };
  } finally {
    await agent.stop();
  }
};

/** The first request's bytes of a Fae whose host gives it the bridges `prepare` makes. */
const firstRequestBytes = async (prepare?: (host: MailHost) => Promise<string[]>) => {
  const host = makeMailHost();
  const names = (await prepare?.(host)) ?? [];
  const agent = await startBenchAgent({
    persona: 'fae',
    host,
    introducedNames: Object.fromEntries(names.map(name => [name, name])),
  });
  try {
    await agent.exchange('ping');
    const first = agent.server.requests.find(request => request.normalized !== undefined)!;
    return { bytes: first.bytes, tools: first.normalized!.toolNames.length };
  } finally {
    await agent.stop();
  }
};

const withMcpServers = async <T>(
  run: (prepare: (host: MailHost) => Promise<string[]>) => Promise<T>,
) => {
  const require = createRequire(import.meta.url);
  const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const filesystem = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  const folder = mkdtempSync(path.join(tmpdir(), 'lal-fae-bench-toolbox-'));
  const bridges = [
    startMcpBridge(
      harden({
        MCP_NAME: 'everything',
        MCP_COMMAND: process.execPath,
        MCP_ARGS: JSON.stringify([everything, 'stdio']),
        MCP_CWD: folder,
      }),
      () => {},
    ),
    startMcpBridge(
      harden({
        MCP_NAME: 'filesystem',
        MCP_COMMAND: process.execPath,
        MCP_ARGS: JSON.stringify([filesystem, folder]),
        MCP_CWD: folder,
      }),
      () => {},
    ),
  ];
  try {
    return await run(async host => {
      // The bridges as caplets of the host's, as `endo make --UNCONFINED tools/mcp.js` would leave them.
      await E(host.host).provideGuest('mcp');
      const names = ['mcp-everything', 'mcp-filesystem'];
      for (const [index, name] of names.entries()) {
        await host.startCaplet(() => bridges[index]!.bridge, {
          powersName: 'mcp',
          resultName: name,
          workerName: `worker-${name}`,
        });
      }
      return names;
    });
  } finally {
    await Promise.all(bridges.map(({ connection }) => connection.close()));
    rmSync(folder, { recursive: true, force: true });
  }
};

export const runToolbox = async (): Promise<ToolboxRun> => {
  const conversation = await runConversation();
  const empty = await firstRequestBytes();
  const mcp = await withMcpServers(prepare => firstRequestBytes(prepare));
  return {
    ...conversation,
    firstRequest: { empty: empty.bytes, mcp: mcp.bytes, mcpTools: mcp.tools },
  };
};
harden(runToolbox);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Figure 13's rows measured through make(). */
export const toolboxRunRows = (run: ToolboxRun): FigureRow[] => {
  const found = median(run.foundCalls);
  const offered = median(run.offeredCalls);
  return [
    {
      label: `bytes reusable from the previous request, ${EXCHANGES} exchanges using ${TOOLS_USED} tools`,
      measured: `${(run.reuse.reusable * 100).toFixed(1)}% over ${run.reuse.requests} requests (${run.reuse.rewrites} rewrote the beginning, ${run.toolsChanged} of them the tools)`,
      target: `≥ ${REUSE_TARGET * 100}%`,
      verdict: judged(run.reuse.reusable >= REUSE_TARGET),
    },
    {
      label: 'model calls: find and use a tool / use it again',
      measured: `${found} / ${offered} (median of ${run.foundCalls.length})`,
      target: `≤ ${EXTRA_CALLS_TARGET} extra`,
      verdict: judged(found - offered <= EXTRA_CALLS_TARGET),
    },
    {
      label: '  the wanted tool first of the search',
      measured: `${run.foundFirst} of ${run.foundCalls.length}`,
      target: '',
      verdict: 'info',
    },
    {
      label: 'first request, server-everything + server-filesystem',
      measured: `${kb(run.firstRequest.mcp)} (${run.firstRequest.mcpTools} tools offered; none in tools/: ${kb(run.firstRequest.empty)})`,
      target: `≤ ${kb(FIRST_REQUEST_TARGET_BYTES)}`,
      verdict: judged(run.firstRequest.mcp <= FIRST_REQUEST_TARGET_BYTES),
    },
  ];
};
harden(toolboxRunRows);
