/**
 * A hundred tools without a hundred workers (docs/daemon-guide.md, "A Fae
 * with a hundred tools"): setup-tools with FAE_TOOL_MODULES makes one tool
 * source caplet (tools/tool-source.ts) offering the tools of every module
 * named, in the guest's worker beside its agent; every tool caplet it makes
 * shares that worker unless FAE_TOOL_ISOLATE gives it one of its own.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeToolSetup } from '../setup-tools.js';
import { make as makeToolSourceCaplet, toolModuleSpecifier } from '../tools/tool-source.js';
import {
  agentSource,
  captureOutput,
  useSetupRuns,
  stubEnv,
  toolSource,
  waitForText,
} from './support/setup-harness.js';

const sourceModule = new URL('../tools/tool-source.ts', import.meta.url).href;
const file = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));
const toolboxModule = file('../sim/toolbox-tools.ts');
const mathModule = file('../tools/math.ts');

const { tempFolder, pongModel } = useSetupRuns();

const SETTINGS = [
  'FAE_TOOL_MODULES',
  'FAE_TOOL_SOURCE',
  'FAE_TOOL_ENV',
  'FAE_TOOL_ISOLATE',
  'FAE_CWD',
  'LAL_WORKER',
  'MCP_NAME',
];
const stubToolEnv = (values: Record<string, string>) => {
  for (const name of SETTINGS) vi.stubEnv(name, undefined);
  stubEnv(values);
};

const setupTools = (say: (line: string) => void) =>
  makeToolSetup({
    agentSpecifier: agentSource,
    toolSpecifier: toolSource,
    toolSourceSpecifier: sourceModule,
    say,
  });

interface Source {
  listTools(): Promise<{ schema(): Promise<{ function: { name: string } }> }[]>;
  help(): string;
}

const namesOf = async (source: Source) =>
  Promise.all(
    (await E(source).listTools()).map(async tool => (await E(tool).schema()).function.name),
  );

describe('a tool source caplet', () => {
  it('setup-tools makes one caplet offering 100 tools and more, in the guest worker, and the agent offers them all', async () => {
    const model = await pongModel();
    const mailHost = makeMailHost();
    stubToolEnv({
      FAE_GUEST: 'fae',
      LAL_HOST: model.url,
      LAL_MODEL: 'pong',
      FAE_TOOL_MODULES: toolboxModule,
      FAE_TOOL_ENV: 'TOOLBOX_TO',
      TOOLBOX_TO: '110',
    });
    const output = captureOutput();
    await setupTools(output.say)(mailHost.host);

    expect(output.text()).toContain('created "tool-source" (passed TOOLBOX_TO, TOOL_MODULES)');
    expect(output.text()).toContain('"tool-source" offers 110 tool(s): repo_create_item, ');
    expect(output.text()).toMatch(
      /the tools run in "worker-for-fae", beside the agent \(FAE_TOOL_ISOLATE=<name> gives one a worker of its own\)/,
    );
    expect(await E(mailHost.host).has('worker-for-tool-source')).toBe(false);
    const source = (await E(mailHost.host).lookup('tool-source')) as Source;
    const names = await namesOf(source);
    expect(names).toHaveLength(110);
    expect(new Set(names).size).toBe(110);

    // The agent offers every one of them: past the tool budget, through the toolbox.
    await waitForText(mailHost, 'Fae agent ready.');
    await E(mailHost.host).send('fae', ['ping tools'], [], []);
    await waitForText(mailHost, 'pong: ping tools');
    const last = model.requests.filter(request => request.normalized).at(-1);
    expect(last?.normalized?.toolNames).toContain('toolbox');
    expect(JSON.stringify(last?.body)).toContain('Finds and calls the 113 tools not offered here');
  });

  it('FAE_TOOL_ISOLATE gives the tools it names a worker of their own; a name setup does not make is refused before anything is made', async () => {
    const mailHost = makeMailHost();
    stubToolEnv({
      FAE_GUEST: 'fae',
      LAL_HOST: 'http://127.0.0.1:9/v1',
      FAE_TOOL_ISOLATE: 'math-tool, nothing-tool',
    });
    const output = captureOutput();
    await expect(setupTools(output.say)(mailHost.host)).rejects.toThrow(
      /^FAE_TOOL_ISOLATE names "nothing-tool", which this run does not make; it makes "greet-tool, math-tool, timestamp-tool"$/,
    );
    expect(await E(mailHost.host).has('math-tool')).toBe(false);

    stubToolEnv({
      FAE_GUEST: 'fae',
      LAL_HOST: 'http://127.0.0.1:9/v1',
      FAE_TOOL_ISOLATE: 'math-tool',
    });
    await setupTools(output.say)(mailHost.host);
    expect(output.text()).toContain(
      'created "math-tool" in a worker of its own, "worker-for-math-tool" (FAE_TOOL_ISOLATE)',
    );
    expect(await E(mailHost.host).has('worker-for-math-tool')).toBe(true);
    expect(await E(mailHost.host).has('worker-for-greet-tool')).toBe(false);
    expect(mailHost.caplet('worker-for-math-tool')?.id).toBe(
      await E(mailHost.host).identify('math-tool'),
    );
  });

  it('a module that fails, or a tool whose name an earlier one took, is left out and named; the rest are offered', async () => {
    const folder = tempFolder('tool-source');
    const broken = path.join(folder, 'broken.mjs');
    writeFileSync(broken, "export const make = () => { throw new Error('no key given'); };\n");
    const source = (await makeToolSourceCaplet(undefined, undefined, {
      env: { TOOL_MODULES: `${mathModule}, ${broken},${mathModule}` },
    })) as unknown as Source;

    expect(await namesOf(source)).toEqual(['math']);
    const help = await E(source).help();
    expect(help).toContain(`Not offered: ${broken} (no key given).`);
    expect(help).toContain(
      `Not offered: math of ${mathModule} (an earlier module offers a tool of that name).`,
    );
    await expect(makeToolSourceCaplet(undefined, undefined, { env: {} })).rejects.toThrow(
      /^TOOL_MODULES names no module/,
    );
    expect(() => toolModuleSpecifier('tools/math.js')).toThrow(
      /"tools\/math.js" is neither a built-in tool .* nor an absolute path or file:\/\/ URL/,
    );
    expect(toolModuleSpecifier('math')).toMatch(/^file:\/\/.*\/tools\/math\.js$/);
  });
});
