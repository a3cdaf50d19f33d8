/**
 * A fake MCP server written here with the SDK's server classes, served over
 * streamable HTTP on loopback in the test's own process: it demands a bearer
 * token (401 without it, as a real remote server does), offers `shout`, and
 * can be told to add or remove a tool, which makes it send
 * `notifications/tools/list_changed` to the connected client, or to restart
 * (forgetting its sessions, as a remote server that restarted does).
 * With `odd`, it also offers what a real server may: `kinds`, whose answers
 * are media, links, resources, structured content or a tool error; three
 * tools whose MCP names (`files.read`, `files/read`, `files read`) are no
 * valid tool name, one with a title and no description, two with neither;
 * and `huge`, whose schema is too large to offer. With `waiting`, it offers `wait`, which
 * answers only when its caller cancels it (`notifications/cancelled`), and says when.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer, type RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

export interface FakeMcpServer {
  url: string;
  /** Adds a tool `name` answering its `text` argument reversed; the client is told the list changed. */
  addTool(name: string): void;
  /** Removes a tool; the client is told the list changed. */
  removeTool(name: string): void;
  /** Starts afresh: the sessions are forgotten (a request in one is answered 404), the tools kept. */
  restart(): Promise<void>;
  /** Resolves at the next `tools/list` request the server receives. */
  nextToolsList(): Promise<void>;
  /** With `waiting`: resolves when a call of `wait` arrives, then with the reason of its cancellation. */
  nextWait(): Promise<{ cancelled: Promise<string> }>;
  /** The Authorization headers it was sent, and how many requests it refused. */
  seen: { authorizations: string[]; refused: number };
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
};

/** What `kinds` answers for each kind asked. */
const KIND_RESULTS = {
  media: {
    content: [
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      {
        type: 'resource_link',
        uri: 'file:///notes/a.md',
        name: 'a.md',
        description: 'the first note',
      },
      { type: 'resource', resource: { uri: 'file:///notes/b.md', text: '# B' } },
      { type: 'resource', resource: { uri: 'file:///blob.bin', blob: 'AAAAAAAA' } },
      {
        type: 'resource',
        resource: { uri: 'file:///a.zip', blob: 'UEsDBA==', mimeType: 'application/zip' },
      },
    ],
  },
  structured: { content: [], structuredContent: { answer: 42, unit: 'apples' } },
  failure: { content: [{ type: 'text', text: 'the disk is full' }], isError: true },
  nothing: { content: [] },
} as const;

const addOddTools = (server: McpServer) => {
  server.registerTool(
    'kinds',
    {
      description: 'Answers content of the kind asked.',
      inputSchema: { kind: z.enum(['media', 'structured', 'failure', 'nothing']) },
    },
    ({ kind }) => KIND_RESULTS[kind] as never,
  );
  for (const name of ['files.read', 'files/read', 'files read'])
    server.registerTool(
      name,
      {
        ...(name === 'files.read' ? { title: 'Reads a file' } : {}),
        inputSchema: { path: z.string() },
      },
      ({ path }) => ({ content: [{ type: 'text', text: `${name}: ${path}` }] }),
    );
  server.registerTool(
    'huge',
    { description: 'x'.repeat(40_000), inputSchema: { text: z.string() } },
    () => ({ content: [] }),
  );
};

export const startFakeMcpServer = async (
  token: string,
  options: { odd?: boolean; waiting?: boolean } = {},
): Promise<FakeMcpServer> => {
  const waitCalls: ((call: { cancelled: Promise<string> }) => void)[] = [];
  const added = new Set<string>();
  const removed = new Set<string>();
  let registered = new Map<string, RegisteredTool>();
  const makeServer = async () => {
    const server = new McpServer(
      { name: 'fake', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    const tools = new Map<string, RegisteredTool>();
    if (!removed.has('shout'))
      tools.set(
        'shout',
        server.registerTool(
          'shout',
          { description: 'Answers the text in capitals.', inputSchema: { text: z.string() } },
          ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
        ),
      );
    if (options.odd === true) addOddTools(server);
    if (options.waiting === true)
      server.registerTool(
        'wait',
        { description: 'Answers once it is cancelled.', inputSchema: {} },
        (_args, extra) => {
          const cancelled = new Promise<string>(resolve => {
            extra.signal.addEventListener('abort', () => resolve(String(extra.signal.reason)));
          });
          for (const wake of waitCalls.splice(0)) wake({ cancelled });
          return cancelled.then(() => ({ content: [] }));
        },
      );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    registered = tools;
    return { server, transport };
  };
  const addReverse = (server: McpServer, name: string) =>
    server.registerTool(
      name,
      { description: 'Answers the text reversed.', inputSchema: { text: z.string() } },
      ({ text }) => ({ content: [{ type: 'text', text: [...text].reverse().join('') }] }),
    );
  let current = await makeServer();
  const seen = { authorizations: [] as string[], refused: 0 };
  let listWaiters: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const authorization = request.headers.authorization ?? '';
      seen.authorizations.push(authorization);
      if (authorization !== `Bearer ${token}`) {
        seen.refused += 1;
        response
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"error":"unauthorized"}');
        return;
      }
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      if ((body as { method?: unknown } | undefined)?.method === 'tools/list') {
        const waiters = listWaiters;
        listWaiters = [];
        for (const wake of waiters) wake();
      }
      await current.transport.handleRequest(request, response, body);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    addTool: name => {
      added.add(name);
      registered.set(name, addReverse(current.server, name));
    },
    removeTool: name => {
      removed.add(name);
      added.delete(name);
      registered.get(name)?.remove();
      registered.delete(name);
    },
    restart: async () => {
      await current.server.close();
      current = await makeServer();
      for (const name of added) registered.set(name, addReverse(current.server, name));
    },
    nextToolsList: () => new Promise<void>(resolve => listWaiters.push(resolve)),
    nextWait: () => new Promise(resolve => waitCalls.push(resolve)),
    seen,
    close: async () => {
      await current.server.close();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
};
