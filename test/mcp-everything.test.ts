/**
 * The MCP bridge (tools/mcp.ts, docs/mcp.md) against the real server
 * `@modelcontextprotocol/server-everything` from npm, started by the bridge in
 * the bubblewrap sandbox over stdio, offline: its tools listed with schemas
 * fit for every provider, calls answered, a tool error reported as an error,
 * images and resources described, a call that outlasts MCP_TIMEOUT_MS failed
 * in time, a server killed in the middle of a call started again at the next
 * one, and the server's environment the allow list plus MCP_ENV only.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { make, startMcpBridge } from '../tools/mcp.js';
import type { FaeTool } from '../src/agent-tools/fae-tool.js';
import { checkToolSchema } from '../src/agent-tools/check-tool-schema.js';
import { everythingServer } from './support/mcp-servers.js';
import { makeTempDir } from './tools-helpers.js';

interface Bridge {
  listTools(): Promise<FaeTool[]>;
  tool(name: string): Promise<FaeTool>;
  help(): string;
}

const folders: string[] = [];
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map(close => close()));
  closers = [];
});
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const everythingEnv = (env: Record<string, string> = {}) => {
  const cwd = makeTempDir('mcp-everything');
  folders.push(cwd);
  return {
    MCP_NAME: 'everything',
    MCP_COMMAND: process.execPath,
    MCP_ARGS: JSON.stringify([everythingServer, 'stdio']),
    MCP_CWD: cwd,
    ...env,
  };
};

const startBridge = (env: Record<string, string> = {}) => {
  const logs: string[] = [];
  const made = startMcpBridge(harden(everythingEnv(env)), line => logs.push(line));
  closers.push(() => made.connection.close());
  return { bridge: made.bridge as unknown as Bridge, connection: made.connection, logs };
};

// server-everything 2026.8.31 offers these 13 over stdio (its default tool set).
const EVERYTHING_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'simulate-research-query',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
];

describe('the MCP bridge with server-everything', () => {
  test('make() lists its 13 tools, each with a schema fit for every provider', async () => {
    // As in the daemon's worker: the SDK is loaded and runs after SES lockdown.
    expect(Object.isFrozen(Object.prototype)).toBe(true);
    const bridge = make(
      undefined,
      harden({}),
      harden({ env: everythingEnv() }),
    ) as unknown as Bridge;
    const tools = await E(bridge).listTools();
    const schemas = await Promise.all(tools.map(tool => E(tool).schema()));
    expect(schemas.map(schema => schema.function.name).sort()).toEqual(EVERYTHING_TOOLS);
    for (const schema of schemas) {
      expect(Object.isFrozen(schema)).toBe(true);
      // What the agent's check makes of it is exactly what the bridge advertises: already normalised.
      const checked = checkToolSchema(schema);
      expect(checked.ok).toBe(true);
      if (checked.ok) expect(checked.schema).toEqual(schema);
      expect(schema.function.parameters.type).toBe('object');
      expect(schema.function.description).not.toBe('');
    }
    const sum = schemas.find(schema => schema.function.name === 'get-sum')!;
    expect(sum.function.parameters.required).toEqual(['a', 'b']);
    expect(await E(bridge).help()).toContain('get-sum');
    // The same FaeTool each time: the agent reads a schema once per tool.
    expect((await E(bridge).listTools())[0]).toBe(tools[0]);
    const echo = await E(bridge).tool('echo');
    expect(await E(echo).execute({ message: 'bye' })).toBe('Echo: bye');
  });

  test('calls echo and get-sum, and reports a tool error as an error', async () => {
    const { bridge } = startBridge();
    const echo = await E(bridge).tool('echo');
    expect(await E(echo).execute({ message: 'hello there' })).toBe('Echo: hello there');
    const sum = await E(bridge).tool('get-sum');
    expect(await E(sum).execute({ a: 19, b: 23 })).toMatch(/\b42\b/);
    await expect(E(sum).execute({ a: 'nineteen', b: 23 })).rejects.toThrow(
      /get-sum reported an error: .*(number|Invalid)/s,
    );
    await expect(E(bridge).tool('no-such-tool')).rejects.toThrow(/offers no tool "no-such-tool"/);
  });

  test('describes an image in a short note and a resource as a link', async () => {
    const { bridge } = startBridge();
    const image = (await E(E(bridge).tool('get-tiny-image')).execute({})) as string;
    expect(image).toMatch(/\[image \(image\/png, \d+ bytes\): not shown\]/);
    expect(image.length).toBeLessThan(1000);
    const links = (await E(E(bridge).tool('get-resource-links')).execute({ count: 2 })) as string;
    expect(links.match(/\[resource link: [^\]]*<[a-z]+:\/\/[^>]+>/g)).toHaveLength(2);
  });

  test('a call that outlasts MCP_TIMEOUT_MS fails in time, and the server keeps serving', async () => {
    const { bridge, connection } = startBridge({ MCP_TIMEOUT_MS: '400' });
    const long = await E(bridge).tool('trigger-long-running-operation');
    await expect(E(long).execute({ duration: 30, steps: 3 })).rejects.toThrow(
      'mcp: trigger-long-running-operation did not answer within 400 ms (MCP_TIMEOUT_MS); the server was asked to cancel it',
    );
    expect(await E(E(bridge).tool('echo')).execute({ message: 'still here' })).toBe(
      'Echo: still here',
    );
    expect(connection.starts()).toBe(1);
  });

  test('a server killed during a call fails that call and is started again at the next', async () => {
    const { bridge, connection, logs } = startBridge();
    const long = await E(bridge).tool('trigger-long-running-operation');
    const midRun = new Promise<void>(resolve => connection.onProgress(() => resolve()));
    const call = E(long).execute({ duration: 30, steps: 300 });
    await midRun;
    const pid = connection.serverPid()!;
    expect(pid).toBeGreaterThan(0);
    process.kill(-pid, 'SIGKILL');
    await expect(call).rejects.toThrow(
      /trigger-long-running-operation failed: the MCP server "everything" was killed by SIGKILL during the call; it is started again at the next call/,
    );
    expect(await E(E(bridge).tool('echo')).execute({ message: 'again' })).toBe('Echo: again');
    expect(connection.starts()).toBe(2);
    expect(connection.serverPid()).not.toBe(pid);
    expect(logs.filter(line => line.includes('starting the server'))).toHaveLength(2);
  });

  test('the server gets only the allow-listed environment and MCP_ENV, and a secret there is never shown', async () => {
    process.env.LAL_FAE_TEST_WORKER_SECRET = 'worker-secret-value-123';
    try {
      const { bridge, logs } = startBridge({
        MCP_ENV: 'SERVICE_REGION, SERVICE_API_KEY',
        SERVICE_REGION: 'eu-west',
        SERVICE_API_KEY: 'sk-passed-secret-987',
      });
      const text = (await E(E(bridge).tool('get-env')).execute({})) as string;
      const env = JSON.parse(text) as Record<string, string>;
      expect(Object.keys(env).sort()).toEqual(
        ['HOME', 'LANG', 'PATH', 'PWD', 'SERVICE_API_KEY', 'SERVICE_REGION', 'TERM'].sort(),
      );
      expect(env.SERVICE_REGION).toBe('eu-west');
      // The server holds the key it was given, but the model is never shown it.
      expect(env.SERVICE_API_KEY).toBe('[redacted]');
      expect(text).not.toContain('worker-secret-value-123');
      expect(logs.join('\n')).not.toContain('sk-passed-secret-987');
      expect(logs.some(line => line.startsWith('[mcp-everything] stderr: '))).toBe(true);
    } finally {
      delete process.env.LAL_FAE_TEST_WORKER_SECRET;
    }
  });
});
