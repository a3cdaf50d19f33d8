/**
 * One MCP server as the bridge sees it: connected when first needed,
 * its tool list kept current (every page of `tools/list`, again on
 * `notifications/tools/list_changed`), every request bounded by
 * MCP_TIMEOUT_MS, and a server that dies left dead until the next call,
 * which starts it again. A call that fails says why in words the model can
 * act on; nothing here holds the bearer token but the transport's headers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { readSecret } from '../../../providers/read-secret.js';
import { makeChildTransport, type ChildTransport } from './child-transport.js';
import type { McpSettings } from './mcp-settings.js';
import { prepareServerLaunch } from './server-launch.js';
import { describeError } from '../../../providers/describe-error.js';

/** Starting a server (initialize, then its tool list) may take this long even when calls may not. */
const START_TIMEOUT_MS = 30_000;
harden(START_TIMEOUT_MS);

/** How the bridge introduces itself to a server. */
const CLIENT_INFO = { name: 'lal-fae-mcp-bridge', version: '0.1.0' };

type ProgressListener = (tool: string, progress: number, total: number | undefined) => void;

/** Pages of `tools/list` read at most (a server that pages forever is cut off). */
const MAX_TOOL_PAGES = 50;
/** How much of a server's last stderr line a failure to connect quotes. */
const LAST_WORDS_CHARS = 200;

export interface McpConnection {
  /** The server's tools as last listed; connects (or restarts) when nothing was listed yet. */
  tools(): Promise<readonly Tool[]>;
  /** Calls a tool; when `stop` aborts, the server is told `notifications/cancelled` and the call fails saying so. */
  call(name: string, args: Record<string, unknown>, stop?: AbortSignal): Promise<CallToolResult>;
  /** Called after the tool list changed (a notification, or a restart that listed it anew). */
  onToolsChanged(listener: () => void): void;
  /** Called with each progress notification of a call (`progress` of `total`). */
  onProgress(listener: ProgressListener): void;
  /** How many times the server was started. */
  starts(): number;
  /** The process id of a local server while it runs (its process group's). */
  serverPid(): number | undefined;
  close(): Promise<void>;
}

interface Live {
  client: Client;
  transport: Transport;
  /** Set once the connection has closed: why, in words. */
  closed?: string;
  /** Set when close() ends it: what its transport reports then (an aborted stream) is no error. */
  ending?: boolean;
}

/** Every page of the server's tool list (a server that pages forever is cut off, and it is said). */
const listAll = async (
  client: Client,
  timeoutMs: number,
  log: (line: string) => void,
): Promise<Tool[]> => {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page += 1) {
    // eslint-disable-next-line no-await-in-loop -- each page names the next
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, {
      timeout: timeoutMs,
    });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  log(`the server's tool list has more than ${MAX_TOOL_PAGES} pages; the rest is left out`);
  return tools;
};

/** Why a call failed, in words the model can act on. */
const describeFailure = (
  error: unknown,
  closed: string | undefined,
  settings: McpSettings,
  tool: string,
  broken = false,
  stop?: AbortSignal,
): string => {
  // Stopped by its caller (behaviour 6.7): the SDK told the server to cancel it; the connection is sound.
  if (stop?.aborted === true)
    return `mcp: ${tool} was stopped (${describeError(stop.reason)}); the server was asked to cancel it`;
  if (broken)
    return `mcp: ${tool} failed: ${closed}; the connection is made again at the next call`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return `mcp: ${tool} did not answer within ${settings.timeoutMs} ms (MCP_TIMEOUT_MS); the server was asked to cancel it`;
  if (
    closed !== undefined ||
    (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
  )
    return `mcp: ${tool} failed: ${closed ?? `the MCP server "${settings.name}" closed the connection`} during the call; it is started again at the next call`;
  return `mcp: ${tool} failed: ${describeError(error)}`;
};

/** A call failed with no answer from the server and not because its caller stopped it (the SDK's own abort). */
const failedUnasked = (error: unknown, stop: AbortSignal | undefined): boolean =>
  !(error instanceof McpError) && stop?.aborted !== true;

/** The transport to the server: HTTP with the token read now, or a started (sandboxed) child. */
const openTransport = async (
  server: McpSettings['server'],
  log: (line: string) => void,
): Promise<Transport> => {
  if (server.kind === 'http') {
    // Read at each connection, so a rotated token is used; kept only in the request headers.
    const token =
      server.tokenFile === undefined
        ? undefined
        : readSecret({ MCP_AUTH_TOKEN_FILE: server.tokenFile }, 'MCP_AUTH_TOKEN');
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
    });
  }
  const launch = await prepareServerLaunch(server);
  log(`starting the server (${server.command}; sandbox: ${launch.sandbox})`);
  return makeChildTransport(launch, line => log(`stderr: ${line}`));
};

// A server that cannot start says why on stderr, which the log alone would otherwise hold.
const howItEnded = (transport: unknown): string => {
  const child = transport as Partial<ChildTransport>;
  const ended = child.ended?.();
  if (ended === undefined) return '';
  const words = child.lastWords?.();
  if (words === undefined) return ` (the server ${ended})`;
  const which = words.isError ? 'the error it wrote' : 'the last line it wrote';
  return ` (the server ${ended}; ${which}: ${JSON.stringify(words.line.slice(0, LAST_WORDS_CHARS))})`;
};

/** Connects, or closes the client and says why, with how a local server ended. */
const connectClient = async (
  client: Client,
  transport: Transport,
  name: string,
  timeout: number,
): Promise<void> => {
  try {
    await client.connect(transport, { timeout });
  } catch (error) {
    await client.close().catch(() => {});
    throw Error(
      `mcp: could not connect to the MCP server "${name}": ${describeError(error)}${howItEnded(transport)}`,
      { cause: error },
    );
  }
};

export const makeMcpConnection = (
  settings: McpSettings,
  log: (line: string) => void,
): McpConnection => {
  const { name, timeoutMs, server } = settings;
  const startTimeoutMs = Math.max(timeoutMs, START_TIMEOUT_MS);
  let live: Live | undefined;
  /** The connection being made (its server starting, which may take long): close() ends it too. */
  let starting: Live | undefined;
  let connecting: Promise<Live> | undefined;
  let listed: readonly Tool[] | undefined;
  let listing: Promise<readonly Tool[]> | undefined;
  let started = 0;
  let closing = false;
  const listeners: (() => void)[] = [];
  const progressListeners: ProgressListener[] = [];

  const relist = (current: Live): Promise<readonly Tool[]> => {
    const next = listAll(current.client, startTimeoutMs, log).then(
      tools => {
        if (live === current) {
          listed = tools;
          for (const listener of listeners) listener();
        }
        return tools;
      },
      (error: unknown) => {
        log(`could not list the server's tools: ${describeError(error)}`);
        throw error;
      },
    );
    listing = next;
    const clear = () => {
      if (listing === next) listing = undefined;
    };
    void next.then(clear, clear);
    return next;
  };

  const connect = async (): Promise<Live> => {
    const transport = await openTransport(server, log);
    started += 1;
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const current: Live = { client, transport };
    client.onclose = () => {
      // Already said why (a broken transport dropped by call()).
      if (current.closed !== undefined) return;
      const child = transport as Partial<ChildTransport>;
      current.closed = `the MCP server "${name}" ${child.ended?.() ?? 'closed the connection'}`;
      if (!closing) log(`${current.closed}; it is started again at the next call`);
      if (live === current) live = undefined;
    };
    // What an ending close() made the transport report (an aborted stream) is no error.
    client.onerror = error => current.ending === true || log(`connection: ${describeError(error)}`);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      log('the server says its tool list changed; listing it again');
      relist(current).catch(() => {});
    });
    starting = current;
    try {
      await connectClient(client, transport, name, startTimeoutMs);
    } finally {
      if (starting === current) starting = undefined;
    }
    live = current;
    await relist(current);
    return current;
  };

  /** The live connection, starting the server if it is not running. */
  const ensure = (): Promise<Live> => {
    if (live !== undefined && live.closed === undefined) return Promise.resolve(live);
    connecting ??= connect().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    tools: async () => {
      if (listing !== undefined) await listing.catch(() => {});
      if (listed !== undefined) return listed;
      await ensure();
      return listed ?? [];
    },
    call: async (tool, args, stop) => {
      const current = await ensure();
      try {
        return (await current.client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: timeoutMs,
          ...(stop === undefined ? {} : { signal: stop }),
          onprogress: ({ progress, total }) => {
            for (const listener of progressListeners) listener(tool, progress, total);
          },
        })) as CallToolResult;
      } catch (error) {
        // A broken transport (a remote server restarted or gone), not an answer: dropped, made again.
        const broken = current.closed === undefined && failedUnasked(error, stop);
        if (broken) {
          if (live === current) live = undefined;
          current.closed = `the connection to the MCP server "${name}" failed (${describeError(error)})`;
          log(`${current.closed}; it is made again at the next call`);
          void current.client.close().catch(() => {});
        }
        throw Error(describeFailure(error, current.closed, settings, tool, broken, stop), {
          cause: error,
        });
      }
    },
    onToolsChanged: listener => {
      listeners.push(listener);
    },
    onProgress: listener => {
      progressListeners.push(listener);
    },
    starts: () => started,
    serverPid: () =>
      live === undefined ? undefined : (live.transport as Partial<ChildTransport>).pid?.(),
    close: async () => {
      closing = true;
      const current = live;
      live = undefined;
      for (const ending of [current, starting]) if (ending !== undefined) ending.ending = true;
      // A server still starting is ended too: its connect then fails, and nothing is listed.
      await starting?.transport.close().catch(() => {});
      await current?.client.close();
      closing = false;
    },
  };
};
harden(makeMcpConnection);
