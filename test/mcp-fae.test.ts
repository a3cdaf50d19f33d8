/**
 * The MCP bridge as Fae uses it (docs/mcp.md): the bridge caplet made in the
 * daemon double and given to the guest under tools/, its tools offered and
 * called in Fae turns; a remote server (streamable HTTP, a bearer token from
 * MCP_AUTH_TOKEN_FILE) that adds a tool has it offered at the next turn.
 * The bridge to a remote server that answers media, resources, structured
 * content and tool errors, names tools with characters no model API allows,
 * and offers a schema too large: each described, renamed or left out.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { startFakeMcpServer } from './support/mcp-fake-server.js';
import { startMcpBridge } from '../tools/mcp.js';
import { everythingServer } from './support/mcp-servers.js';
import { makeTempDir } from './tools-helpers.js';

const mcpUrl = new URL('../tools/mcp.ts', import.meta.url).href;
const { start } = useAgents();

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
const tempDir = (label: string) => {
  const folder = makeTempDir(label);
  folders.push(folder);
  return folder;
};

const lastContent = (request: { messages: { content: string }[] }) =>
  request.messages.at(-1)!.content;

/** A fake remote MCP server wanting `token`, and a mail host whose `mcp-fake` bridge reads it from a file. */
const withFakeBridge = async (token: string, label: string) => {
  const fake = await startFakeMcpServer(token);
  const tokenFile = path.join(tempDir(label), 'token');
  writeFileSync(tokenFile, `${token}\n`);
  const host = makeMailHost();
  await E(host.host).makeUnconfined('worker-mcp', mcpUrl, {
    resultName: 'mcp-fake',
    env: { MCP_NAME: 'fake', MCP_URL: fake.url, MCP_AUTH_TOKEN_FILE: tokenFile },
  });
  /**
   * Ends the bridge, then the server: the bridge's stream to a server that went first would fail
   * and say so on the run's stderr ("[mcp-fake] connection: fetch failed"), an end no test waits for.
   */
  const close = async () => {
    await E(host.host).cancel('mcp-fake');
    await fake.close();
  };
  return { fake, host, close };
};

describe('Fae with an MCP bridge in tools/', () => {
  test('offers server-everything’s tools and calls echo and get-sum in its turns', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-mcp', mcpUrl, {
      resultName: 'mcp-everything',
      env: {
        MCP_NAME: 'everything',
        MCP_COMMAND: process.execPath,
        MCP_ARGS: JSON.stringify([everythingServer, 'stdio']),
        MCP_CWD: tempDir('mcp-fae'),
      },
    });
    let asked = -1;
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'mcp-everything': 'mcp-everything' },
      steps: [
        request => {
          asked = latestMessageNumber(request);
          // Its 13 schemas are past the tool budget: the toolbox names the server, and a tool
          // called by its own name runs (docs/mcp.md, "Many servers: the toolbox").
          expect(request.toolNames).toContain('toolbox');
          const toolbox = request.tools.find(tool => tool.function.name === 'toolbox');
          expect(toolbox?.function.description).toMatch(/Sources: mcp-everything \(\d+: /);
          return callTool('echo', { message: 'through Fae' });
        },
        request => {
          expect(lastContent(request)).toContain('Echo: through Fae');
          return callTool('get-sum', { a: 40, b: 2 });
        },
        request => {
          const sum = /\b42\b/.exec(lastContent(request))?.[0] ?? 'no sum';
          return callTool('reply', { messageNumber: asked, strings: [`the sum is ${sum}`] });
        },
        say(''),
      ],
    });
    await run.send('echo and add, please');
    await run.reply('the sum is 42');
  });

  test('a remote server’s new tool (tools/list_changed) is offered at the next turn, a dropped one no longer', async () => {
    const token = 'fake-token-5f1d2c9b8a';
    const { fake, host, close } = await withFakeBridge(token, 'mcp-remote');
    try {
      const offered: string[][] = [];
      const run = await start({
        host,
        persona: 'fae',
        introducedNames: { 'mcp-fake': 'mcp-fake' },
        steps: [
          request => {
            offered.push(request.toolNames);
            return callTool('shout', { text: 'hello' });
          },
          request => say(`first: ${lastContent(request)}`),
          request => {
            offered.push(request.toolNames);
            return callTool('reverse', { text: 'stressed' });
          },
          request => say(`second: ${lastContent(request)}`),
          request => {
            offered.push(request.toolNames);
            return say('third');
          },
        ],
      });
      await run.send('shout hello');
      await run.reply(/HELLO/);
      const added = fake.nextToolsList();
      fake.addTool('reverse');
      await added;
      await run.send('now reverse');
      await run.reply(/desserts/);
      const dropped = fake.nextToolsList();
      fake.removeTool('shout');
      await dropped;
      await run.send('and now?');
      await run.reply('third');
      expect(offered[0]).toContain('shout');
      expect(offered[0]).not.toContain('reverse');
      expect(offered[1]).toEqual(expect.arrayContaining(['shout', 'reverse']));
      expect(offered[2]).toContain('reverse');
      expect(offered[2]).not.toContain('shout');
      // Every request carried the token from the file; none was refused.
      expect(fake.seen.refused).toBe(0);
      expect(new Set(fake.seen.authorizations)).toEqual(new Set([`Bearer ${token}`]));
    } finally {
      await close();
    }
  });

  test('behind the toolbox, a server’s new tool (tools/list_changed) is found at the next turn, a dropped one no longer', async () => {
    const { fake, host, close } = await withFakeBridge('fake-token-0c3e7a91d4', 'mcp-toolbox');
    try {
      const names = (request: { messages: { content: string }[] }) =>
        (JSON.parse(lastContent(request)) as { found: { name: string }[] }).found.map(
          tool => tool.name,
        );
      const found: string[][] = [];
      const run = await start({
        host,
        persona: 'fae',
        // A budget nothing fits in: every tool of the server waits behind the toolbox.
        env: { LAL_TOOL_BUDGET_TOKENS: '1' },
        introducedNames: { 'mcp-fake': 'mcp-fake' },
      });
      const search = (query: string, then: string) =>
        run.provider.push(
          request => {
            expect(request.toolNames).toContain('toolbox');
            return callTool('toolbox', { find: query });
          },
          request => {
            found.push(names(request));
            return say(then);
          },
        );
      search('text reversed', 'first');
      await run.send('reverse something');
      await run.reply('first');
      const added = fake.nextToolsList();
      fake.addTool('reverse');
      await added;
      search('text reversed', 'second');
      run.provider.push(
        () => callTool('toolbox', { use: 'reverse', arguments: { text: 'stressed' } }),
        request => say(`reversed: ${lastContent(request)}`),
      );
      await run.send('now reverse');
      await run.reply('second');
      await run.send('use it');
      await run.reply(/^reversed: .*desserts/);
      const dropped = fake.nextToolsList();
      fake.removeTool('shout');
      await dropped;
      search('shout', 'third');
      await run.send('and now?');
      await run.reply('third');
      expect(found[0]).not.toContain('reverse');
      expect(found[1]![0]).toBe('reverse');
      expect(found[0]).toContain('shout');
      expect(found[2]).not.toContain('shout');
    } finally {
      await close();
    }
  });

  test('a remote server that restarted and forgot the session: the call fails saying so, the next connects again', async () => {
    const token = 'fake-token-0a9b8c7d6e';
    const fake = await startFakeMcpServer(token);
    const folder = tempDir('mcp-remote');
    const tokenFile = path.join(folder, 'token');
    writeFileSync(tokenFile, token);
    const logs: string[] = [];
    const { bridge, connection } = startMcpBridge(
      harden({ MCP_NAME: 'fake', MCP_URL: fake.url, MCP_AUTH_TOKEN_FILE: tokenFile }),
      line => logs.push(line),
    );
    try {
      const shout = await E(bridge).tool('shout');
      expect(await E(shout).execute({ text: 'one' })).toBe('ONE');
      await fake.restart();
      await expect(E(shout).execute({ text: 'two' })).rejects.toThrow(
        /^mcp: shout failed: the connection to the MCP server "fake" failed \(.+\); the connection is made again at the next call$/,
      );
      expect(await E(shout).execute({ text: 'three' })).toBe('THREE');
      expect(connection.starts()).toBe(2);
      expect(logs.join('\n')).not.toContain(token);
    } finally {
      await connection.close();
      await fake.close();
    }
  });
});

describe('a bridge closed on purpose', () => {
  test('says nothing of its own stream ending: no "connection: … AbortError" line (issue 45)', async () => {
    const token = 'fake-token-7d8e9f0a1b';
    const fake = await startFakeMcpServer(token);
    const tokenFile = path.join(tempDir('mcp-close'), 'token');
    writeFileSync(tokenFile, token);
    const logs: string[] = [];
    const { bridge, connection } = startMcpBridge(
      harden({ MCP_NAME: 'fake', MCP_URL: fake.url, MCP_AUTH_TOKEN_FILE: tokenFile }),
      line => logs.push(line),
    );
    try {
      await E(bridge).listTools();
      // The server's own stream is open once a list_changed it sends comes back as a new listing.
      const relisted = fake.nextToolsList();
      fake.addTool('reverse');
      await relisted;
      await connection.close();
      // Past what the aborted stream reports (its fetch settles after the abort, a few turns on).
      for (let turn = 0; turn < 10; turn += 1) await new Promise(resolve => setImmediate(resolve));
      expect(logs.filter(line => /connection:/.test(line))).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe('a bridged call stopped by its caller (behaviour 6.7)', () => {
  test('the server is told notifications/cancelled, the call fails saying so, and the connection serves the next', async () => {
    const token = 'fake-token-5e6f7a8b9c';
    const fake = await startFakeMcpServer(token, { waiting: true });
    const tokenFile = path.join(tempDir('mcp-stop'), 'token');
    writeFileSync(tokenFile, token);
    const { bridge, connection } = startMcpBridge(
      harden({ MCP_NAME: 'fake', MCP_URL: fake.url, MCP_AUTH_TOKEN_FILE: tokenFile }),
      () => {},
    );
    try {
      const wait = await E(bridge).tool('wait');
      const arrived = fake.nextWait();
      let stop: (why: string) => void = () => {};
      const stopped = new Promise<string>(resolve => {
        stop = resolve;
      });
      const pending = E(wait).executeUntil(harden({}), stopped);
      const { cancelled } = await arrived;
      stop('its turn was stopped');
      await expect(pending).rejects.toThrow(
        /^mcp: wait was stopped \(its turn was stopped\); the server was asked to cancel it$/,
      );
      expect(await cancelled).toBe('its turn was stopped');
      const shout = await E(bridge).tool('shout');
      expect(await E(shout).execute(harden({ text: 'after' }))).toBe('AFTER');
      expect(connection.starts()).toBe(1);
    } finally {
      await connection.close();
      await fake.close();
    }
  });
});

describe('the bridge to a remote server that offers what real servers may', () => {
  const withOddServer = async (
    body: (
      bridge: { listTools(): unknown[]; tool(name: string): unknown; help(): string },
      fake: Awaited<ReturnType<typeof startFakeMcpServer>>,
      logs: string[],
    ) => Promise<void>,
  ) => {
    const token = 'fake-token-3c4d5e6f70';
    const fake = await startFakeMcpServer(token, { odd: true });
    const tokenFile = path.join(tempDir('mcp-odd'), 'token');
    writeFileSync(tokenFile, token);
    const logs: string[] = [];
    const { bridge, connection } = startMcpBridge(
      harden({ MCP_NAME: 'odd', MCP_URL: fake.url, MCP_AUTH_TOKEN_FILE: tokenFile }),
      line => logs.push(line),
    );
    try {
      await body(bridge as never, fake, logs);
    } finally {
      await connection.close();
      await fake.close();
    }
  };
  const execute = (tool: unknown, args: object) =>
    E(tool as { execute(args: object): Promise<unknown> }).execute(args);

  test('media, links and resources are described; structured content is JSON; a tool error fails the call', async () => {
    await withOddServer(async bridge => {
      const kinds = await E(bridge).tool('kinds');
      expect(((await execute(kinds, { kind: 'media' })) as string).split('\n')).toEqual([
        '[image (image/png, 8 bytes): not shown]',
        '[audio (audio/wav, 4 bytes): not shown]',
        '[resource link: a.md <file:///notes/a.md> the first note]',
        '[resource <file:///notes/b.md>]',
        '# B',
        '[resource <file:///blob.bin> (binary, 6 bytes): not shown]',
        '[resource <file:///a.zip> (application/zip, 4 bytes): not shown]',
      ]);
      expect(await execute(kinds, { kind: 'structured' })).toBe('{"answer":42,"unit":"apples"}');
      expect(await execute(kinds, { kind: 'nothing' })).toBe('');
      await expect(execute(kinds, { kind: 'failure' })).rejects.toThrow(
        /^kinds reported an error: the disk is full$/,
      );
    });
  });

  test('names that are no valid tool name are made valid and kept apart; a schema too large is left out, said once', async () => {
    await withOddServer(async (bridge, _fake, logs) => {
      const tools = await E(bridge).listTools();
      const schemas = (await Promise.all(
        tools.map(tool => E(tool as { schema(): unknown }).schema()),
      )) as { function: { name: string; description: string } }[];
      expect(schemas.map(schema => schema.function.name)).toEqual([
        'shout',
        'kinds',
        'files_read',
        'files_read_2',
        'files_read_3',
      ]);
      // Without a description the title describes it; without either, nothing does.
      expect(schemas.slice(2).map(schema => schema.function.description)).toEqual([
        'Reads a file',
        '',
        '',
      ]);
      expect(await execute(await E(bridge).tool('files_read_2'), { path: 'x' })).toBe(
        'files/read: x',
      );
      await E(bridge).listTools();
      const refusals = logs.filter(line => line.includes('"huge" is not offered'));
      expect(refusals).toHaveLength(1);
      expect(refusals[0]).toMatch(/its schema is \d+ characters, more than 32000/);
      const help = await E(bridge).help();
      expect(help).toContain('Offered: shout, kinds, files_read, files_read_2, files_read_3.');
      expect(help).toMatch(/Not offered: "huge" \(its schema is \d+ characters/);
      expect(help).toContain('The server is remote (streamable HTTP).');
    });
  });

  test('a tool the server dropped fails when called through a FaeTool taken before', async () => {
    await withOddServer(async (bridge, fake) => {
      const shout = await E(bridge).tool('shout');
      const listed = fake.nextToolsList();
      fake.removeTool('shout');
      await listed;
      await E(bridge).listTools();
      await expect(execute(shout, { text: 'hi' })).rejects.toThrow(
        'mcp: shout is no longer offered by the MCP server "odd"',
      );
    });
  });
});
