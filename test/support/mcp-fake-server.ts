/**
 * A fake MCP server written here with the SDK's server classes, served over
 * streamable HTTP on loopback in the test's own process: it demands a bearer
 * token (401 without it, as a real remote server does), offers `shout`, and
 * can be told to add or remove a tool, which makes it send
 * `notifications/tools/list_changed` to the connected client, or to restart
 * (forgetting its sessions, as a remote server that restarted does).
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

export const startFakeMcpServer = async (token: string): Promise<FakeMcpServer> => {
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
    seen,
    close: async () => {
      await current.server.close();
      server.closeAllConnections();
      await new Promise<void>(resolve => server.close(() => resolve()));
    },
  };
};
