/**
 * The MCP bridge caplet: one Model Context Protocol server's tools as
 * FaeTools. It starts a local server (MCP_COMMAND, MCP_ARGS, MCP_ENV) over
 * stdio inside the sandbox runCommand uses, or connects to a remote one
 * (MCP_URL, streamable HTTP, a bearer token read from MCP_AUTH_TOKEN_FILE).
 * `listTools()` answers one FaeTool per MCP tool, kept current as the
 * server's list changes; Fae offers them all when the bridge sits in its
 * tools/ (docs/mcp.md). Every call is bounded (MCP_TIMEOUT_MS); a server that
 * died is started again at the next call, and the call it died in fails
 * saying so. The server's stderr goes to the log, redacted. Cancelled, it
 * ends its server's process.
 */
import { E } from '@endo/far';
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import type { Env } from '../providers/types.js';
import { readSecret } from '../providers/read-secret.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { bridgeSecrets, makeBridgeLog, type BridgeLog } from './lib/mcp/bridge-log.js';
import { makeRedactText } from '../providers/redact-secrets.js';
import { makeMcpConnection, type McpConnection } from './lib/mcp/mcp-connection.js';
import { describeResult } from './lib/mcp/mcp-result.js';
import { readMcpSettings, type McpSettings } from './lib/mcp/mcp-settings.js';
import { mcpMadeWith } from './lib/mcp/mcp-made-with.js';
import { bridgeTools, type BridgedTool } from './lib/mcp/mcp-tool-schemas.js';
import type { ToolArgs } from './lib/tool-args.js';
import { describeError } from '../providers/describe-error.js';

export const McpBridgeInterface = M.interface('McpBridge', {
  /** One FaeTool per tool the server offers now. */
  listTools: M.call().returns(M.promise()),
  /** The FaeTool the model calls by this name, if the server offers it. */
  tool: M.call(M.string()).returns(M.promise()),
  help: M.call().returns(M.string()),
  /**
   * The names of the tools its server offers, or why it cannot say: never a rejection, since
   * setup asks from the CLI, whose CapTP prints every rejected answer raw.
   */
  check: M.call().returns(M.promise()),
  /** Its MCP settings, no secret: setup compares them when run again (docs/mcp.md). */
  madeWith: M.call().returns(M.recordOf(M.string(), M.string())),
});

const describeServer = (settings: McpSettings): string =>
  settings.server.kind === 'http'
    ? `the MCP server at ${new URL(settings.server.url).origin}`
    : `the local MCP server "${settings.server.command}"`;

/** The bridge itself, given its settings, connection and log (tests and the bench give their own). */
export const makeMcpBridge = (
  settings: McpSettings,
  connection: McpConnection,
  log: BridgeLog,
  redactText: (text: string) => string,
  madeWith: Record<string, string> = {},
) => {
  const { name } = settings;
  // Model name → the FaeTool for the current schema; a changed schema makes a new FaeTool,
  // so an agent that caches schemas by tool sees it.
  const made = new Map<string, { schemaText: string; tool: ReturnType<typeof makeTool> }>();
  let offered: BridgedTool[] = [];
  let refused: { mcpName: string; reason: string }[] = [];
  let current: Promise<void> | undefined;

  const makeTool = (bridged: BridgedTool) =>
    makeFaeTool({
      name: bridged.name,
      description: bridged.schema.function.description,
      parameters: bridged.schema.function.parameters,
      help: [
        `${bridged.name}(args): the tool "${bridged.mcpName}" of ${describeServer(settings)} (MCP, bridged by mcp-${name}).`,
        bridged.schema.function.description,
        `Arguments: ${JSON.stringify(bridged.schema.function.parameters)}`,
        `A call that takes longer than ${settings.timeoutMs} ms fails; images and binary resources are described, not shown.`,
      ].join('\n'),
      run: async (args: ToolArgs, stop: AbortSignal) => {
        if (!offered.some(each => each.mcpName === bridged.mcpName)) {
          throw Error(`mcp: ${bridged.name} is no longer offered by the MCP server "${name}"`);
        }
        let text: string;
        let isError: boolean;
        try {
          ({ text, isError } = describeResult(
            await connection.call(bridged.mcpName, { ...args }, stop),
          ));
        } catch (error) {
          const message = redactText(describeError(error));
          log(`${bridged.mcpName}: ${message}`);
          throw Error(message, { cause: error });
        }
        if (isError) throw Error(redactText(`${bridged.name} reported an error: ${text}`));
        return redactText(text);
      },
    });

  const update = (tools: readonly Parameters<typeof bridgeTools>[0][number][]) => {
    const bridged = bridgeTools(tools);
    for (const { mcpName, reason } of bridged.refused) {
      if (!refused.some(each => each.mcpName === mcpName))
        log(`the tool "${mcpName}" is not offered: ${reason}`);
    }
    offered = bridged.tools;
    refused = bridged.refused;
    for (const tool of offered) {
      const schemaText = JSON.stringify(tool.schema);
      if (made.get(tool.name)?.schemaText !== schemaText)
        made.set(tool.name, { schemaText, tool: makeTool(tool) });
    }
  };

  const refresh = async () => {
    update(await connection.tools());
  };
  connection.onToolsChanged(() => {
    current = refresh().catch(() => {});
  });

  const listTools = async () => {
    if (current !== undefined) await current;
    try {
      await refresh();
    } catch (error) {
      const message = redactText(describeError(error));
      log(message);
      throw Error(message, { cause: error });
    }
    return harden(offered.map(tool => made.get(tool.name)!.tool));
  };

  return makeExo(`mcp-${name}`, McpBridgeInterface, {
    listTools,
    async tool(toolName: string) {
      const tools = await listTools();
      const found = tools[offered.findIndex(each => each.name === toolName)];
      if (found === undefined)
        throw Error(`mcp: the MCP server "${name}" offers no tool "${toolName}"`);
      return found;
    },
    async check() {
      try {
        await listTools();
        return harden({ tools: offered.map(tool => tool.name) });
      } catch (error) {
        return harden({ problem: describeError(error) });
      }
    },
    madeWith() {
      return harden({ ...madeWith });
    },
    help() {
      return [
        `mcp-${name}: the tools of ${describeServer(settings)} (Model Context Protocol) as FaeTools.`,
        'listTools() -> one FaeTool per tool the server offers now; tool(name) -> one of them.',
        offered.length === 0
          ? 'Its tools are listed when it is first asked.'
          : `Offered: ${offered.map(tool => tool.name).join(', ')}.`,
        ...refused.map(({ mcpName, reason }) => `Not offered: "${mcpName}" (${reason}).`),
        settings.server.kind === 'stdio'
          ? `The server runs ${settings.server.sandbox.unsandboxed ? 'unconfined (MCP_UNSANDBOXED)' : `in a bubblewrap sandbox: ${settings.server.cwd} is the only writable folder${settings.server.sandbox.allowNetwork ? '' : ', no network'}`}.`
          : 'The server is remote (streamable HTTP).',
        `A call fails after ${settings.timeoutMs} ms; a server that died is started again at the next call.`,
      ].join('\n');
    },
  });
};
harden(makeMcpBridge);

/** A bridge made from its env, with its connection (to close) and a log sink (stderr unless given). */
export const startMcpBridge = (env: Env | undefined, sink?: (line: string) => void) => {
  const settings = readMcpSettings(env);
  const token =
    settings.server.kind === 'http' && settings.server.tokenFile !== undefined
      ? readSecret({ MCP_AUTH_TOKEN_FILE: settings.server.tokenFile }, 'MCP_AUTH_TOKEN')
      : undefined;
  const redactText = makeRedactText(
    bridgeSecrets(token, settings.server.kind === 'stdio' ? settings.server.passEnv : {}),
  );
  const log = makeBridgeLog(settings.name, redactText, sink);
  const connection = makeMcpConnection(settings, log);
  return {
    bridge: makeMcpBridge(settings, connection, log, redactText, mcpMadeWith(env)),
    connection,
  };
};
harden(startMcpBridge);

/** Closes the connection, ending a local server's process, once the caplet's context is cancelled. */
const closeWhenCancelled = (context: unknown, connection: McpConnection): void => {
  if (context === undefined || context === null) return;
  const close = () => void connection.close().catch(() => {});
  // whenCancelled() rejects with the reason when the context is cancelled.
  void Promise.resolve()
    .then(() => E(context as { whenCancelled(): Promise<void> }).whenCancelled())
    .then(close, close);
};

/**
 * The caplet: its server ends with it. Cancelled (detached from every name and collected, or the
 * daemon going down), the bridge closes its connection, which ends a local server's process.
 */
export const make = (_powers?: unknown, context?: unknown, options?: { env?: Env }) => {
  const { bridge, connection } = startMcpBridge(options?.env);
  closeWhenCancelled(context, connection);
  return bridge;
};
harden(make);
