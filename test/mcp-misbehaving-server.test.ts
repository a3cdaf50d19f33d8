/**
 * The MCP bridge (tools/mcp.ts, docs/mcp.md) with a stdio server that
 * misbehaves as real ones do: a small JSON-RPC server written here, run by
 * node from MCP_ARGS, that writes lines that are no JSON-RPC on stdout,
 * a stderr line longer than the log takes (without its end for a while)
 * and a last one without an end,
 * lists its tools over two pages, and exits in the middle of a call. The
 * noise is logged and skipped, every tool is offered, the call that killed
 * it fails saying how the server ended, and the next call starts it again.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { startMcpBridge } from '../tools/mcp.js';
import type { FaeTool } from '../src/agent-tools/fae-tool.js';
import { makeTempDir } from './tools-helpers.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The server: plain CommonJS for `node -e`, answering initialize, tools/list and tools/call. */
const SERVER = `
const readline = require('node:readline');
process.stdout.write('starting up, not JSON\\n');
process.stderr.write('x'.repeat(5000));
const send = message => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\\n');
const schema = { type: 'object', properties: { text: { type: 'string' } } };
readline.createInterface({ input: process.stdin }).on('line', line => {
  const message = JSON.parse(line);
  const params = message.params || {};
  if (message.method === 'initialize') {
    process.stderr.write(' and its end\\na last line without an end');
    send({ id: message.id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'noisy', version: '1.0.0' } } });
  } else if (message.method === 'tools/list')
    send({ id: message.id, result: params.cursor === 'page-2'
      ? { tools: [{ name: 'die', description: 'Exits.', inputSchema: { type: 'object' } }] }
      : { tools: [{ name: 'echo', description: 'Echoes.', inputSchema: schema }], nextCursor: 'page-2' } });
  else if (message.method === 'tools/call') {
    if (params.name === 'die') process.exit(3);
    process.stdout.write('noise between answers\\n');
    send({ id: message.id, result: { content: [{ type: 'text', text: 'echo: ' + params.arguments.text }] } });
  }
});
`;

describe('the MCP bridge with a stdio server that misbehaves', () => {
  test('noise is skipped, both pages of tools are offered, an exit mid-call is named and the next call starts it again', async () => {
    const cwd = makeTempDir('mcp-noisy');
    folders.push(cwd);
    const logs: string[] = [];
    const { bridge, connection } = startMcpBridge(
      harden({
        MCP_NAME: 'noisy',
        MCP_COMMAND: process.execPath,
        MCP_ARGS: JSON.stringify(['-e', SERVER]),
        MCP_CWD: cwd,
        MCP_UNSANDBOXED: '1',
      }),
      line => logs.push(line),
    );
    const tools = bridge as unknown as {
      listTools(): Promise<FaeTool[]>;
      tool(name: string): Promise<FaeTool>;
    };
    try {
      const listed = await E(tools).listTools();
      const names = await Promise.all(
        listed.map(async tool => (await E(tool).schema()).function.name),
      );
      expect(names).toEqual(['echo', 'die']);
      const echo = await E(tools).tool('echo');
      expect(await E(echo).execute({ text: 'one' })).toBe('echo: one');
      // The lines that are no JSON-RPC were reported, not taken for answers.
      expect(logs.filter(line => / connection: .*is not valid JSON/.test(line))).toHaveLength(2);
      const die = await E(tools).tool('die');
      await expect(E(die).execute({})).rejects.toThrow(
        /^mcp: die failed: the MCP server "noisy" exited with code 3 during the call; it is started again at the next call$/,
      );
      // The long stderr line is cut to what the log takes, whether its end came in the same read or
      // later; the last, unended one is logged at the exit.
      expect(logs).toContain(`[mcp-noisy] stderr: ${'x'.repeat(4096)}`);
      expect(logs).toContain('[mcp-noisy] stderr: a last line without an end');
      expect(await E(echo).execute({ text: 'two' })).toBe('echo: two');
      expect(connection.starts()).toBe(2);
    } finally {
      await connection.close();
    }
  });
});
