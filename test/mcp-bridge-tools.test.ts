// The MCP bridge's tools as its connection lists them (tools/mcp.ts, docs/mcp.md): a tool whose
// schema changed is a new FaeTool with the new schema, an unchanged one the same FaeTool; a tool no
// longer offered fails by name; a refusal is logged once; what a call answers is redacted.
import { E } from '@endo/far';
import { describe, expect, test } from 'vitest';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { makeMcpBridge } from '../tools/mcp.js';
import type { McpConnection } from '../tools/lib/mcp/mcp-connection.js';
import { readMcpSettings } from '../tools/lib/mcp/mcp-settings.js';
import type { ToolSchema } from '../providers/types.js';

const tool = (name: string, properties: Record<string, object>): Tool => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties },
});

/** A connection double: the tool list the test sets, the calls it was asked, and its listeners. */
const makeConnection = (listed: Tool[]) => {
  const state = { listed, calls: [] as [string, unknown][], answer: {} as CallToolResult };
  const changed: (() => void)[] = [];
  const connection: McpConnection = {
    tools: async () => state.listed,
    call: async (name, args) => {
      state.calls.push([name, args]);
      if (state.answer.content === undefined) throw Error('server gone with secret-42');
      return state.answer;
    },
    onToolsChanged: listener => {
      changed.push(listener);
    },
    onProgress: () => {},
    starts: () => 1,
    serverPid: () => undefined,
    close: async () => {},
  };
  return { connection, state, changed };
};

const settings = readMcpSettings({ MCP_URL: 'http://127.0.0.1:1/mcp', MCP_NAME: 'demo' });
const redact = (text: string) => text.replaceAll('secret-42', '[redacted]');

interface FaeToolRef {
  schema(): ToolSchema;
  execute(args: Record<string, unknown>): unknown;
}

const schemasOf = async (tools: FaeToolRef[]) => Promise.all(tools.map(each => E(each).schema()));

describe('the MCP bridge keeps its tools as the server lists them', () => {
  test('a changed schema makes a new FaeTool with the new schema; an unchanged one stays the same', async () => {
    const { connection, state } = makeConnection([
      tool('echo', { text: { type: 'string' } }),
      tool('add', { a: { type: 'number' } }),
    ]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact);
    const first = (await E(bridge).listTools()) as FaeToolRef[];
    expect((await schemasOf(first)).map(schema => schema.function.name)).toEqual(['echo', 'add']);
    state.listed = [
      tool('echo', { text: { type: 'string' }, loud: { type: 'boolean' } }),
      tool('add', { a: { type: 'number' } }),
    ];
    const second = (await E(bridge).listTools()) as FaeToolRef[];
    expect(second[0]).not.toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    const [echo] = await schemasOf(second);
    expect(Object.keys(echo!.function.parameters.properties ?? {})).toEqual(['text', 'loud']);
  });

  test('a tool the server no longer offers fails by name; tool() finds only what is offered', async () => {
    const { connection, state } = makeConnection([tool('echo', {}), tool('add', {})]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact);
    const [echo] = (await E(bridge).listTools()) as FaeToolRef[];
    state.listed = [tool('add', {})];
    expect((await E(bridge).listTools()) as unknown[]).toHaveLength(1);
    await expect(E(echo!).execute({})).rejects.toThrow(
      'mcp: echo is no longer offered by the MCP server "demo"',
    );
    expect(state.calls).toEqual([]);
    await expect(E(bridge).tool('echo')).rejects.toThrow(
      'mcp: the MCP server "demo" offers no tool "echo"',
    );
    const add = (await E(bridge).tool('add')) as FaeToolRef;
    expect((await E(add).schema()).function.name).toBe('add');
  });

  test('a tool the check refuses is left out, logged once, and named in help()', async () => {
    const bad = tool('bad', { n: { type: 'number', maximum: Number.POSITIVE_INFINITY } });
    const { connection } = makeConnection([bad, tool('echo', {})]);
    const lines: string[] = [];
    const bridge = makeMcpBridge(settings, connection, line => lines.push(line), redact);
    expect((await E(bridge).listTools()) as unknown[]).toHaveLength(1);
    await E(bridge).listTools();
    expect(lines.filter(line => line.startsWith('the tool "bad" is not offered:'))).toHaveLength(1);
    const help = await E(bridge).help();
    expect(help).toMatch(/Offered: echo\./);
    expect(help).toMatch(/Not offered: "bad" \(/);
  });

  test('a list that changes while it is not asked is listed again at the next ask', async () => {
    const { connection, state, changed } = makeConnection([tool('echo', {})]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact);
    await E(bridge).listTools();
    state.listed = [tool('echo', {}), tool('add', {})];
    for (const listener of changed) listener();
    expect(await E(bridge).help()).toMatch(/Offered: echo, add\./);
  });

  test("a call answers the server's text, redacted; its error and failure are failed calls, redacted", async () => {
    const lines: string[] = [];
    const { connection, state } = makeConnection([tool('echo', { text: { type: 'string' } })]);
    const bridge = makeMcpBridge(settings, connection, line => lines.push(line), redact);
    const [echo] = (await E(bridge).listTools()) as FaeToolRef[];
    state.answer = { content: [{ type: 'text', text: 'said secret-42' }] };
    expect(await E(echo!).execute({ text: 'hi' })).toBe('said [redacted]');
    expect(state.calls).toEqual([['echo', { text: 'hi' }]]);
    state.answer = { content: [{ type: 'text', text: 'no secret-42' }], isError: true };
    await expect(E(echo!).execute({ text: 'hi' })).rejects.toThrow(
      'echo reported an error: no [redacted]',
    );
    state.answer = {} as CallToolResult;
    await expect(E(echo!).execute({ text: 'hi' })).rejects.toThrow(/server gone with \[redacted\]/);
    expect(lines).toEqual(['echo: server gone with [redacted]']);
  });
});
