// The MCP bridge's tools as its connection lists them (tools/mcp.ts, docs/mcp.md): a tool whose
// schema changed is a new FaeTool with the new schema, an unchanged one the same FaeTool; a tool no
// longer offered fails by name; a refusal is logged once; what a call answers is redacted.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { E } from '@endo/far';
import { getInterfaceGuardPayload } from '@endo/patterns';
import { describe, expect, test } from 'vitest';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { make, makeMcpBridge, McpBridgeInterface, startMcpBridge } from '../tools/mcp.js';
import { useTempFolders } from './support/temp-folders.js';
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
  const state = {
    listed,
    calls: [] as [string, unknown][],
    answer: {} as CallToolResult,
    // Answers of tools() the test holds back, taken first (a list still on its way).
    held: [] as Promise<Tool[]>[],
  };
  const changed: (() => void)[] = [];
  const connection: McpConnection = {
    tools: async () => state.held.shift() ?? state.listed,
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

/** A FaeTool's help, as the model reads it with help(). */
interface HelpRef {
  help(): string;
}

const folders = useTempFolders();

describe("the MCP bridge's words and its answers to setup", () => {
  test('a bridged tool says what it is, whose, its arguments and its bound', async () => {
    const { connection } = makeConnection([tool('echo', { text: { type: 'string' } })]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact);
    const [echo] = (await E(bridge).listTools()) as HelpRef[];
    expect(await E(echo!).help()).toBe(
      [
        'echo(args): the tool "echo" of the MCP server at http://127.0.0.1:1 (MCP, bridged by mcp-demo).',
        'the echo tool',
        'Arguments: {"type":"object","properties":{"text":{"type":"string"}}}',
        'A call that takes longer than 60000 ms fails; images and binary resources are described, not shown.',
      ].join('\n'),
    );
  });

  test("the bridge's help, remote: before its tools are first listed, and after", async () => {
    const { connection } = makeConnection([tool('echo', {}), tool('add', {})]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact);
    const before = [
      'mcp-demo: the tools of the MCP server at http://127.0.0.1:1 (Model Context Protocol) as FaeTools.',
      'listTools() -> one FaeTool per tool the server offers now; tool(name) -> one of them.',
      'Its tools are listed when it is first asked.',
      'The server is remote (streamable HTTP).',
      'A call fails after 60000 ms; a server that died is started again at the next call.',
    ];
    expect(await E(bridge).help()).toBe(before.join('\n'));
    await E(bridge).listTools();
    expect(await E(bridge).help()).toBe(
      [...before.slice(0, 2), 'Offered: echo, add.', ...before.slice(3)].join('\n'),
    );
  });

  test("the bridge's help, local: the server named, and its sandbox as it is", async () => {
    const cwd = folders('mcp-local');
    const local = (more: Record<string, string>) =>
      makeMcpBridge(
        readMcpSettings({ MCP_NAME: 'files', MCP_COMMAND: 'files-server', MCP_CWD: cwd, ...more }),
        makeConnection([]).connection,
        () => {},
        redact,
      );
    const lines = async (more: Record<string, string>) => (await E(local(more)).help()).split('\n');
    expect((await lines({}))[0]).toBe(
      'mcp-files: the tools of the local MCP server "files-server" (Model Context Protocol) as FaeTools.',
    );
    expect((await lines({}))[3]).toBe(
      `The server runs in a bubblewrap sandbox: ${cwd} is the only writable folder, no network.`,
    );
    expect((await lines({ MCP_ALLOW_NETWORK: '1' }))[3]).toBe(
      `The server runs in a bubblewrap sandbox: ${cwd} is the only writable folder.`,
    );
    expect((await lines({ MCP_UNSANDBOXED: '1' }))[3]).toBe(
      'The server runs unconfined (MCP_UNSANDBOXED).',
    );
  });

  test('it is an McpBridge to the daemon, named by its server; check() and madeWith() answer setup', async () => {
    const { connection, state } = makeConnection([tool('echo', {}), tool('add', {})]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact, { MCP_NAME: 'demo' });
    expect(String(bridge)).toBe('[object Alleged: mcp-demo]');
    expect(getInterfaceGuardPayload(McpBridgeInterface).interfaceName).toBe('McpBridge');
    expect(await E(bridge).check()).toStrictEqual({ tools: ['echo', 'add'] });
    expect(await E(bridge).madeWith()).toStrictEqual({ MCP_NAME: 'demo' });
    state.held.push(Promise.reject(Error('refused with secret-42')));
    expect(await E(bridge).check()).toStrictEqual({ problem: 'refused with [redacted]' });
  });

  test('a list that fails is logged and refused, redacted, with its cause', async () => {
    const lines: string[] = [];
    const { connection, state } = makeConnection([]);
    const bridge = makeMcpBridge(settings, connection, line => lines.push(line), redact);
    const failure = Error('gone with secret-42');
    state.held.push(Promise.reject(failure));
    const refused = await E(bridge)
      .listTools()
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe('gone with [redacted]');
    expect((refused as Error).cause).toBe(failure);
    expect(lines).toEqual(['gone with [redacted]']);
  });

  test('each of several tools offered runs', async () => {
    const { connection, state } = makeConnection([tool('echo', {}), tool('add', {})]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact);
    const [, add] = (await E(bridge).listTools()) as FaeToolRef[];
    state.answer = { content: [{ type: 'text', text: '3' }] };
    expect(await E(add!).execute({})).toBe('3');
  });

  test('a tool refused anew is logged, one already refused is not again', async () => {
    const bad = (name: string) =>
      tool(name, { n: { type: 'number', maximum: Number.POSITIVE_INFINITY } });
    const lines: string[] = [];
    const { connection, state } = makeConnection([bad('bad')]);
    const bridge = makeMcpBridge(settings, connection, line => lines.push(line), redact);
    await E(bridge).listTools();
    await E(bridge).listTools();
    state.listed = [bad('bad'), bad('worse')];
    await E(bridge).listTools();
    await E(bridge).listTools();
    expect(lines.map(line => line.slice(0, line.indexOf(':')))).toEqual([
      'the tool "bad" is not offered',
      'the tool "worse" is not offered',
    ]);
  });

  test('a list asked for while a change is being listed waits for it, so the older never wins', async () => {
    const { connection, state, changed } = makeConnection([tool('echo', {})]);
    const bridge = makeMcpBridge(settings, connection, () => {}, redact);
    let stale: (tools: Tool[]) => void = () => {};
    state.held.push(
      new Promise<Tool[]>(resolve => {
        stale = resolve;
      }),
    );
    for (const listener of changed) listener();
    state.listed = [tool('echo', {}), tool('add', {})];
    const listing = E(bridge).listTools();
    stale([tool('echo', {})]);
    expect((await listing) as unknown[]).toHaveLength(2);
    expect(await E(bridge).help()).toMatch(/Offered: echo, add\./);
  });
});

describe('the MCP bridge made from its env', () => {
  test('remote with a token file: the token, which a failure may carry, never reaches the log or setup', async () => {
    const token = 'tok-secret-77';
    // A server that refuses every request, saying back the token it was sent (without its "Bearer",
    // which the log would know by its pattern alone).
    const server = createServer((request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(
        `refused ${(request.headers.authorization ?? 'nothing').replace('Bearer ', '')}`,
      );
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const tokenFile = join(folders('mcp-token'), 'token');
    writeFileSync(tokenFile, `${token}\n`);
    const env = harden({
      MCP_NAME: 'far',
      MCP_URL: `http://127.0.0.1:${port}/mcp`,
      MCP_AUTH_TOKEN_FILE: tokenFile,
    });
    const lines: string[] = [];
    const { bridge, connection } = startMcpBridge(env, line => lines.push(line));
    try {
      expect((await E(bridge).help()).split('\n')[0]).toBe(
        `mcp-far: the tools of the MCP server at http://127.0.0.1:${port} (Model Context Protocol) as FaeTools.`,
      );
      expect(await E(bridge).madeWith()).toMatchObject({ MCP_NAME: 'far' });
      const { problem } = (await E(bridge).check()) as { problem: string };
      expect(problem).toMatch(/refused \[redacted\]/);
      expect(problem).not.toContain(token);
      expect(lines.join('\n')).toMatch(/refused \[redacted\]/);
      expect(lines.join('\n')).not.toContain(token);
    } finally {
      await connection.close();
      await new Promise(resolve => server.close(resolve));
    }
  });

  test("make() is the daemon's entry: the bridge of the env it is given", async () => {
    const bridge = make(undefined, undefined, {
      env: harden({ MCP_NAME: 'entry', MCP_URL: 'http://127.0.0.1:1/mcp' }),
    });
    expect(String(bridge)).toBe('[object Alleged: mcp-entry]');
    // Made without options: no env, so no server to bridge, said as the settings say it.
    expect(() => make()).toThrow(
      /^mcp: set MCP_COMMAND \(and MCP_ARGS, MCP_CWD\) to start a local server, or MCP_URL$/,
    );
  });
});
