/**
 * The real server `@modelcontextprotocol/server-filesystem` from npm, run by the MCP
 * bridge in the bubblewrap sandbox (docs/mcp.md): it reads and writes inside
 * MCP_CWD and reaches nothing outside, even where the server itself would
 * allow it (it is told /tmp is allowed; the sandbox's /tmp is its own).
 * Unsandboxed (MCP_UNSANDBOXED=1) the same call does reach outside, which is
 * what the sandbox stops; without bubblewrap the server is not started.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { startMcpBridge } from '../tools/mcp.js';
import type { FaeTool } from '../src/agent-tools/fae-tool.js';
import { filesystemServer } from './support/mcp-servers.js';
import { makeTempDir } from './tools-helpers.js';

interface Bridge {
  listTools(): Promise<FaeTool[]>;
  tool(name: string): Promise<FaeTool>;
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
const tempDir = (label: string) => {
  const folder = makeTempDir(label);
  folders.push(folder);
  return folder;
};

const startFilesystem = (cwd: string, env: Record<string, string> = {}) => {
  const logs: string[] = [];
  const made = startMcpBridge(
    harden({
      MCP_NAME: 'files',
      MCP_COMMAND: process.execPath,
      MCP_ARGS: JSON.stringify([filesystemServer, cwd, '/tmp']),
      MCP_CWD: cwd,
      ...env,
    }),
    line => logs.push(line),
  );
  closers.push(() => made.connection.close());
  return { bridge: made.bridge as unknown as Bridge, logs };
};

const call = (bridge: Bridge, name: string, args: Record<string, unknown>) =>
  E(E(bridge).tool(name)).execute(args) as Promise<string>;

describe('server-filesystem through the MCP bridge, sandboxed', () => {
  test('reads and writes inside MCP_CWD', async () => {
    const cwd = tempDir('mcp-fs');
    writeFileSync(path.join(cwd, 'notes.txt'), 'first line\n');
    const { bridge } = startFilesystem(cwd);
    const names = await Promise.all(
      (await E(bridge).listTools()).map(async tool => (await E(tool).schema()).function.name),
    );
    expect(names).toEqual(
      expect.arrayContaining(['read_text_file', 'write_file', 'list_directory']),
    );
    expect(await call(bridge, 'read_text_file', { path: path.join(cwd, 'notes.txt') })).toBe(
      'first line\n',
    );
    await call(bridge, 'write_file', {
      path: path.join(cwd, 'made.txt'),
      content: 'by the server',
    });
    expect(readFileSync(path.join(cwd, 'made.txt'), 'utf8')).toBe('by the server');
  });

  test('nothing outside MCP_CWD is there to read or write, although the server allows /tmp', async () => {
    const cwd = tempDir('mcp-fs');
    const outside = tempDir('mcp-outside');
    writeFileSync(path.join(outside, 'secret.txt'), 'outside the folder');
    const { bridge } = startFilesystem(cwd);
    await expect(
      call(bridge, 'read_text_file', { path: path.join(outside, 'secret.txt') }),
    ).rejects.toThrow(/reported an error: .*(ENOENT|no such file|not exist)/is);
    await expect(
      call(bridge, 'write_file', { path: path.join(outside, 'planted.txt'), content: 'x' }),
    ).rejects.toThrow(/reported an error/);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    // The sandbox's /tmp holds only MCP_CWD: the host's other temporary folders are not there.
    const listing = await call(bridge, 'list_directory', { path: '/tmp' });
    expect(listing).not.toContain(path.basename(outside));
  });

  test('unsandboxed (MCP_UNSANDBOXED=1), the same read reaches outside: the sandbox is what stops it', async () => {
    const cwd = tempDir('mcp-fs');
    const outside = tempDir('mcp-outside');
    writeFileSync(path.join(outside, 'secret.txt'), 'outside the folder');
    const { bridge, logs } = startFilesystem(cwd, { MCP_UNSANDBOXED: '1' });
    expect(await call(bridge, 'read_text_file', { path: path.join(outside, 'secret.txt') })).toBe(
      'outside the folder',
    );
    expect(logs.some(line => line.includes('sandbox: none (MCP_UNSANDBOXED)'))).toBe(true);
  });

  test('without bubblewrap the server is not started, and the call says how to fix it', async () => {
    const cwd = tempDir('mcp-fs');
    const emptyPath = path.join(tempDir('mcp-path'), 'bin');
    mkdirSync(emptyPath);
    const savedPath = process.env.PATH;
    process.env.PATH = emptyPath;
    try {
      const { bridge } = startFilesystem(cwd);
      await expect(E(bridge).listTools()).rejects.toThrow(
        'mcp: no sandbox, so the server was not started: bubblewrap (bwrap) was not found on PATH: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), or set MCP_UNSANDBOXED=1 to run the server unconfined',
      );
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
