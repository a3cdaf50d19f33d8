/**
 * setup-tools with MCP_NAME (docs/mcp.md): it checks the MCP_* settings
 * before making anything, makes the bridge `mcp-<name>` passing only the
 * MCP variables (and those MCP_ENV names), says which tools its server
 * offers, and gives it to the Fae guest, which offers the server's tools.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeLoopback } from '@endo/captp';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeToolSetup } from '../setup-tools.js';
import { MCP_ENV_NAMES } from '../tools/lib/tool-settings.js';
import {
  agentSource,
  captureOutput,
  useSetupRuns,
  stubEnv,
  toolSource,
  waitForText,
} from './support/setup-harness.js';
import { filesystemServer } from './support/mcp-servers.js';

const mcpSource = new URL('../tools/mcp.ts', import.meta.url).href;

const { tempFolder, pongModel } = useSetupRuns();

const stubMcpEnv = (values: Record<string, string>) => {
  for (const name of MCP_ENV_NAMES) vi.stubEnv(name, undefined);
  stubEnv(values);
};

const setupTools = (say: (line: string) => void) =>
  makeToolSetup({
    agentSpecifier: agentSource,
    toolSpecifier: toolSource,
    mcpSpecifier: mcpSource,
    say,
  });

describe('setup-tools with MCP_NAME', () => {
  it('makes mcp-files, says its tools, and gives it to the Fae guest, whose agent offers them', async () => {
    const model = await pongModel();
    const folder = tempFolder('setup-mcp');
    writeFileSync(path.join(folder, 'hello.txt'), 'hi\n');
    const mailHost = makeMailHost();
    stubMcpEnv({
      FAE_GUEST: 'fae',
      LAL_HOST: model.url,
      LAL_MODEL: 'pong',
      MCP_NAME: 'files',
      MCP_COMMAND: process.execPath,
      MCP_ARGS: JSON.stringify([filesystemServer, folder]),
      MCP_CWD: folder,
      MCP_ENV: 'FILES_REGION',
      FILES_REGION: 'here',
      UNRELATED_SECRET: 'never-passed-1234',
    });
    const output = captureOutput();
    await setupTools(output.say)(mailHost.host);
    expect(output.text()).toContain(
      'created "mcp-files" (passed MCP_NAME, MCP_COMMAND, MCP_ARGS, MCP_ENV, MCP_CWD, FILES_REGION)',
    );
    expect(output.text()).toMatch(/"mcp-files" offers 14 tool\(s\): read_file, read_text_file, /);
    expect(output.text()).toMatch(/created guest "fae" .*introduced .*mcp-files/);
    const bridge = await E(mailHost.host).lookup('mcp-files');
    const read = await E(bridge as { tool(name: string): Promise<unknown> }).tool('read_text_file');
    expect(
      await E(read as { execute(args: object): Promise<unknown> }).execute({
        path: path.join(folder, 'hello.txt'),
      }),
    ).toBe('hi\n');
    // The agent offers the server's tools in its request to the model: past the tool budget (its
    // 14 schemas are some 3,000 tokens), through the toolbox, whose description names the server.
    await waitForText(mailHost, 'Fae agent ready.');
    await E(mailHost.host).send('fae', ['ping'], [], []);
    await waitForText(mailHost, 'pong:');
    const last = model.requests.filter(request => request.normalized).at(-1);
    expect(last?.normalized?.toolNames).toContain('toolbox');
    expect(last?.normalized?.toolNames).not.toContain('read_text_file');
    expect(JSON.stringify(last?.body)).toMatch(/Sources: mcp-files \(\d+: /);

    // Run again: nothing is made twice, and the guest keeps its one bridge.
    await setupTools(output.say)(mailHost.host);
    expect(output.text()).toContain('"mcp-files" already exists; keeping it');

    // docs/mcp.md's remove-and-run-again: the guest's tools/ gets the new bridge in place of the old.
    const fae = E(mailHost.host).lookup('profile-for-fae') as Promise<{
      identify(...path: string[]): Promise<string | undefined>;
    }>;
    const oldBridge = await E(fae).identify('tools', 'mcp-files');
    await E(mailHost.host).remove('mcp-files');
    await setupTools(output.say)(mailHost.host);
    const newBridge = await E(mailHost.host).identify('mcp-files');
    expect(newBridge).not.toBe(oldBridge);
    expect(await E(fae).identify('tools', 'mcp-files')).toBe(newBridge);
    expect(output.text()).toContain('gave it mcp-files (replacing the one it held)');

    // Run again with other settings: the bridge is made anew with them, and the guest given it.
    const other = tempFolder('setup-mcp-other');
    vi.stubEnv('MCP_ARGS', JSON.stringify([filesystemServer, other]));
    vi.stubEnv('MCP_CWD', other);
    await setupTools(output.say)(mailHost.host);
    expect(output.text()).toContain(
      '"mcp-files" was made with other settings (MCP_ARGS, MCP_CWD): making it anew',
    );
    const remade = await E(mailHost.host).identify('mcp-files');
    expect(remade).not.toBe(newBridge);
    expect(await E(fae).identify('tools', 'mcp-files')).toBe(remade);
    const madeWith = await E(
      (await E(mailHost.host).lookup('mcp-files')) as { madeWith(): Record<string, string> },
    ).madeWith();
    expect(madeWith).toMatchObject({ MCP_NAME: 'files', MCP_CWD: other, FILES_REGION: '(passed)' });
    expect(JSON.stringify(madeWith)).not.toContain('here');

    // After a daemon restart (which reads MCP_ARGS back as f0a46042a does) the bridge starts again.
    await mailHost.restart();
    const revived = await E(mailHost.host).lookup('mcp-files');
    const listed = await E(revived as { listTools(): Promise<unknown[]> }).listTools();
    expect(listed).toHaveLength(14);
  });

  it('a bridge whose MCP_ARGS an earlier setup stored as is starts after a restart (issue 35)', async () => {
    const mailHost = makeMailHost();
    const folder = tempFolder('setup-mcp-restart');
    await E(mailHost.host).makeUnconfined('worker-mcp', mcpSource, {
      resultName: 'mcp-files',
      env: {
        MCP_NAME: 'files',
        MCP_COMMAND: process.execPath,
        MCP_ARGS: JSON.stringify([filesystemServer, folder]),
        MCP_CWD: folder,
      },
    });
    await mailHost.restart();
    const revived = await E(mailHost.host).lookup('mcp-files');
    const listed = await E(revived as { listTools(): Promise<unknown[]> }).listTools();
    expect(listed).toHaveLength(14);
  });

  it('a server that cannot start is one warning line, with no rejected call for the CLI to print raw', async () => {
    // `endo run` runs the script in the CLI, whose CapTP prints every rejected answer it gets
    // ("CapTP cli exception: RemoteError(…)#1 …" with a stack), handled or not.
    const mailHost = makeMailHost();
    const rejections: unknown[] = [];
    const { makeFar } = makeLoopback(
      'cli',
      { onReject: (reason: unknown) => rejections.push(reason) },
      { onReject: () => {} },
    );
    const host = await makeFar(mailHost.host);
    const folder = tempFolder('setup-mcp-gone');
    stubMcpEnv({
      MCP_NAME: 'gone',
      MCP_COMMAND: path.join(folder, 'no-such-server'),
      MCP_CWD: folder,
      MCP_UNSANDBOXED: '1',
    });
    const output = captureOutput();
    await setupTools(output.say)(host);
    expect(output.text()).toMatch(
      /^warning: "mcp-gone" could not list its server's tools: mcp: could not connect to the MCP server "gone": .+$/m,
    );
    expect(rejections).toEqual([]);
  });

  /** What setup says of an unsandboxed local server `name` started as `node …args`, which stops at once. */
  const setupOfServerThatStops = async (name: string, args: (folder: string) => string[]) => {
    const folder = tempFolder(`setup-mcp-${name}`);
    stubMcpEnv({
      MCP_NAME: name,
      MCP_COMMAND: process.execPath,
      MCP_ARGS: JSON.stringify(args(folder)),
      MCP_CWD: folder,
      MCP_UNSANDBOXED: '1',
    });
    const output = captureOutput();
    await setupTools(output.say)(await makeLoopback('cli').makeFar(makeMailHost().host));
    return output.text();
  };

  it('a server that stops at start is said with the error it wrote, not only "Connection closed"', async () => {
    const said = await setupOfServerThatStops('stops', () => [
      '-e',
      "console.error('starting'); console.error('Error: Cannot find module /nowhere.js'); process.exit(1)",
    ]);
    expect(said).toMatch(
      /^warning: "mcp-stops" could not list its server's tools: mcp: could not connect to the MCP server "stops": .+ \(the server exited with code 1; the error it wrote: "Error: Cannot find module \/nowhere\.js"\)$/m,
    );
  });

  it('a server whose runtime ends its error with other lines is said with the error it wrote, not its last line (docs/mcp.md)', async () => {
    // Node itself, told to run a file that is not there, ends its stderr with a stack and "Node.js v20…".
    const said = await setupOfServerThatStops('missing', folder => [
      path.join(folder, 'no-such-server.js'),
    ]);
    expect(said).toMatch(
      /\(the server exited with code 1; the error it wrote: "Error: Cannot find module '[^"]*no-such-server\.js'"\)$/m,
    );
  });

  it('a server that stops with no error line is said with the last line it wrote', async () => {
    const said = await setupOfServerThatStops('bye', () => [
      '-e',
      "console.error('an error is coming? no'); console.error('  bye for now'); process.exit(3)",
    ]);
    expect(said).toMatch(
      /\(the server exited with code 3; the last line it wrote: " {2}bye for now"\)$/m,
    );
  });

  it('refuses bad MCP settings before making anything, naming the variable', async () => {
    const mailHost = makeMailHost();
    stubMcpEnv({ MCP_NAME: 'files', MCP_COMMAND: 'node', MCP_ARGS: '[1, 2]', MCP_CWD: '/tmp' });
    const output = captureOutput();
    await expect(setupTools(output.say)(mailHost.host)).rejects.toThrow(
      // The JSON as read, quoted by q() (@endo/errors); a list of numbers is not a list of strings.
      'mcp: MCP_ARGS must be a JSON array of strings, got [1,2]',
    );
    expect(await E(mailHost.host).has('math-tool')).toBe(false);
    stubMcpEnv({
      MCP_NAME: 'files',
      MCP_URL: 'http://127.0.0.1:9/mcp',
      MCP_AUTH_TOKEN: 'abcd1234',
    });
    const refused = setupTools(output.say)(mailHost.host);
    await expect(refused).rejects.toThrow(/MCP_AUTH_TOKEN_FILE/);
    await expect(refused).rejects.not.toThrow(/abcd1234/);
  });
});
