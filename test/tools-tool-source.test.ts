/**
 * The tool source caplet (tools/tool-source.ts) as a module: TOOL_MODULES
 * read (commas, blanks, built-in names, paths), each module made with the
 * caplet's env, and what cannot be offered left out and named (a module that
 * fails to load or make, one without make(), a tool whose schema() fails, a
 * name an earlier tool took), the rest offered in the order named. The
 * setup through the daemon double is setup-tool-source's; this one is quick
 * enough for the mutation run (docs/mutation.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import { toolModuleUrl } from '../tools/index.js';
import { getInterfaceGuardPayload } from '@endo/patterns';
import {
  make,
  toolModuleEntries,
  toolModuleSpecifier,
  ToolSourceInterface,
} from '../tools/tool-source.js';
import { useTempFolders } from './support/temp-folders.js';

const folder = useTempFolders()('tool-source-modules');

/** A module file in the test's folder; its absolute path. */
const moduleFile = (name: string, text: string): string => {
  const file = join(folder, name);
  writeFileSync(file, text);
  return file;
};

/** A module whose make() answers tools named `names`, each answering its name and the env's REGION. */
const toolsNamed = (file: string, names: string[]) =>
  moduleFile(
    file,
    `export const make = (_p, _c, { env }) => ${JSON.stringify(names)}.map(name => ({
  schema: () => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } }),
  execute: () => Promise.resolve(name + ' in ' + env.REGION),
  help: () => name,
}));\n`,
  );

interface Source {
  listTools(): Promise<{ execute(args: unknown): Promise<unknown> }[]>;
  check(): Promise<{ tools: string[]; left: string[] }>;
  help(): string;
}

const sourceOf = async (env: Record<string, string>) =>
  (await make(undefined, undefined, { env })) as unknown as Source;

describe('TOOL_MODULES read', () => {
  it('splits on commas only, trims each entry and drops blanks (a path may hold spaces)', () => {
    expect(toolModuleEntries(' math , /a b/c.js,, ,readFile ')).toEqual([
      'math',
      '/a b/c.js',
      'readFile',
    ]);
    expect(toolModuleEntries(undefined)).toEqual([]);
    expect(toolModuleEntries('')).toEqual([]);
  });

  it('names a built-in tool by its URL, keeps a file:// URL, makes a URL of an absolute path, refuses a relative one', () => {
    expect(toolModuleSpecifier('math')).toBe(toolModuleUrl('math'));
    expect(toolModuleSpecifier('file:///x/y.js')).toBe('file:///x/y.js');
    expect(toolModuleSpecifier('/x/a b.js')).toBe(pathToFileURL('/x/a b.js').href);
    expect(() => toolModuleSpecifier('x/y.js')).toThrow(
      'TOOL_MODULES: "x/y.js" is neither a built-in tool (math, readFile, …) nor an absolute path or file:// URL',
    );
  });

  it('refuses to start with no module named', async () => {
    await expect(make(undefined, undefined, { env: { TOOL_MODULES: ' , ' } })).rejects.toThrow(
      'TOOL_MODULES names no module (comma-separated paths or built-in tool names)',
    );
    await expect(make(undefined, undefined, {})).rejects.toThrow(/TOOL_MODULES names no module/);
    await expect(make(undefined, undefined)).rejects.toThrow(/TOOL_MODULES names no module/);
  });
});

describe('the tools offered', () => {
  it('offers every module’s tools in the order named, each made with the caplet’s env', async () => {
    const first = toolsNamed('first.mjs', ['alpha', 'beta']);
    const second = toolsNamed('second.mjs', ['gamma']);
    const source = await sourceOf({ TOOL_MODULES: `${first}, ${second}`, REGION: 'north' });
    expect(await E(source).check()).toEqual({ tools: ['alpha', 'beta', 'gamma'], left: [] });
    const tools = await E(source).listTools();
    expect(tools).toHaveLength(3);
    expect(await Promise.all(tools.map(tool => E(tool).execute({})))).toEqual([
      'alpha in north',
      'beta in north',
      'gamma in north',
    ]);
    await expect(E(source).help()).resolves.toBe(
      `tool source of ${first}, ${second}: 3 tool(s), through listTools().`,
    );
  });

  it('is a ToolSource to the daemon: its alleged name and its interface say so', async () => {
    const source = await sourceOf({ TOOL_MODULES: 'math' });
    expect(String(source)).toBe('[object Alleged: ToolSource]');
    expect(getInterfaceGuardPayload(ToolSourceInterface).interfaceName).toBe('ToolSource');
  });

  it('offers a built-in tool by its name', async () => {
    const source = await sourceOf({ TOOL_MODULES: 'math' });
    expect((await E(source).check()).tools).toEqual(['math']);
  });

  it('a module that answers one tool rather than a list offers it', async () => {
    const single = moduleFile(
      'single.mjs',
      `export const make = () => ({ schema: () => ({ function: { name: 'solo' } }), execute: async () => 'solo', help: () => 'solo' });\n`,
    );
    const source = await sourceOf({ TOOL_MODULES: single });
    expect(await E(source).check()).toEqual({ tools: ['solo'], left: [] });
  });

  it('leaves out and names what it cannot offer, and offers the rest', async () => {
    const good = toolsNamed('good.mjs', ['alpha']);
    const twin = toolsNamed('twin.mjs', ['alpha', 'delta']);
    const noMake = moduleFile('no-make.mjs', 'export const other = 1;\n');
    const throws = moduleFile(
      'throws.mjs',
      `export const make = () => { throw Error('no key'); };\n`,
    );
    const badSchema = moduleFile(
      'bad-schema.mjs',
      `export const make = () => [
  { schema: () => { throw Error('broken schema'); }, execute: async () => 0, help: () => '' },
  { schema: () => ({ function: { name: 'epsilon' } }), execute: async () => 0, help: () => '' },
];\n`,
    );
    const missing = join(folder, 'missing.mjs');
    const source = await sourceOf({
      TOOL_MODULES: [good, twin, noMake, throws, badSchema, missing].join(','),
    });
    const { tools, left } = await E(source).check();
    expect(tools).toEqual(['alpha', 'delta', 'epsilon']);
    expect(left).toEqual([
      `alpha of ${twin} (an earlier module offers a tool of that name)`,
      `${noMake} (it exports no make())`,
      `${throws} (no key)`,
      `a tool of ${badSchema} (its schema() failed: broken schema)`,
      expect.stringMatching(
        new RegExp(`^${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.+\\)$`),
      ),
    ]);
    expect((await E(source).listTools()).length).toBe(3);
    const help = (await E(source).help()).split('\n');
    expect(help[0]).toMatch(/: 3 tool\(s\), through listTools\(\)\.$/);
    expect(help.slice(1)).toEqual(left.map(line => `Not offered: ${line}.`));
  });
});
