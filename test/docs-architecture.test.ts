/**
 * docs/architecture.md is the map of the code, held to the tree as the
 * layout test holds the imports: every production module of src/,
 * providers/, setup/ and tools/ is named on it (by its path, or by its file
 * name in its folder's row), and every path it names exists (a file name
 * alone: some file of the repository has it). It once named 27 modules
 * fewer than there were, and files at places they had left; later 17 of
 * providers/ and setup/ and the MCP and sandbox modules of tools/lib/ were
 * never named, and the entry object was said to have two methods of five.
 * Its layers are the rule set's (.dependency-cruiser.mjs), in order.
 */
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readRepoFile, repoRoot } from './support/repo-files.js';

const page = readRepoFile('docs/architecture.md');

const IGNORED = new Set(['node_modules', 'dist', '.git', 'reports', 'bench-results', 'coverage']);
const filesUnder = (folder: string): string[] =>
  readdirSync(join(repoRoot, folder), { withFileTypes: true }).flatMap(entry =>
    IGNORED.has(entry.name)
      ? []
      : entry.isDirectory()
        ? filesUnder(join(folder, entry.name))
        : [join(folder, entry.name)],
  );

/** Every `code span` of the page that names a file or folder: a path with `/`, or a name with an extension. */
const named = [...page.matchAll(/`([^`\s]+)`/g)]
  .map(match => match[1]!)
  .filter(text => /^[\w.@-]+(?:\/[\w.@*-]*)*$/.test(text))
  .filter(text => text.includes('/') || /\.(?:ts|mjs|js|json|md)$/.test(text));

const allFiles = filesUnder('.');
const fileNames = new Set(allFiles.map(file => basename(file)));
/** Every folder of the repository, as `a/b/`. */
const folders = new Set(
  allFiles.flatMap(file =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, index, parts) => `${parts.slice(0, index + 1).join('/')}/`),
  ),
);
/** Named on the page but not in the repository: the agent's store (its history, its state directory's entries) and the bench's output. */
const NOT_IN_THE_TREE = new Set(['agent-history/', 'bench-results/latest.json']);
const isInAgentStore = (name: string) => name.startsWith('agent-state/');

const TOP_LEVEL = new Set(
  readdirSync(repoRoot, { withFileTypes: true })
    .filter(entry => entry.isDirectory() && !IGNORED.has(entry.name))
    .map(entry => entry.name),
);

/** Whether a named path is there: whole from the root, or as the end of some path (a folder's row names its files). */
const exists = (name: string): boolean => {
  if (NOT_IN_THE_TREE.has(name) || isInAgentStore(name)) return true;
  if (name.endsWith('/'))
    return [...folders].some(folder => folder === name || folder.endsWith(`/${name}`));
  const file = name.replace(/\.js$/, '.ts');
  // A path from a top-level folder is whole; a shorter one is read in its row's folder.
  if (TOP_LEVEL.has(file.split('/')[0]!)) return existsSync(join(repoRoot, file));
  return file.includes('/')
    ? existsSync(join(repoRoot, file)) || allFiles.some(each => each.endsWith(`/${file}`))
    : fileNames.has(file);
};

describe('docs/architecture.md', () => {
  it('finds the paths it names', () => {
    expect(named).toContain('src/run-agent.ts');
    expect(named.length).toBeGreaterThan(150);
  });

  it('names every production module of src/, providers/, setup/ and tools/', () => {
    const modules = allFiles.filter(
      file => /^(?:src|providers|setup|tools)\//.test(file) && file.endsWith('.ts'),
    );
    expect(modules.length).toBeGreaterThan(200);
    expect(modules).toContain('tools/lib/mcp/mcp-connection.ts');
    expect(modules).toContain('setup/say.ts');
    const unnamed = modules.filter(
      file =>
        !named.includes(file) &&
        !named.some(name => !name.includes('/') && name === basename(file)) &&
        !named.some(name => file.endsWith(`/${name}`)),
    );
    expect(unnamed).toEqual([]);
  });

  it('names only paths that exist', () => {
    expect([...new Set(named.filter(name => !name.includes('*') && !exists(name)))]).toEqual([]);
  });

  it("names every method of the entry object in agent.ts's row", () => {
    const source = readRepoFile('agent.ts');
    const guard = /M\.interface\('LalFaeAgent', \{([^}]*)\}\)/.exec(source);
    const methods = [...(guard?.[1] ?? '').matchAll(/^\s*(\w+):/gm)].map(match => match[1]!);
    expect(methods).toContain('help');
    const row = page.split('\n').find(line => line.startsWith('| `agent.ts` |')) ?? '';
    expect(methods.filter(method => !row.includes(`\`${method}\``))).toEqual([]);
  });

  it('draws the layers of .dependency-cruiser.mjs, in order', async () => {
    const { LAYERS } = (await import(
      pathToFileURL(join(repoRoot, '.dependency-cruiser.mjs')).href
    )) as { LAYERS: readonly { name: string; folders: readonly string[] }[] };
    const section = page.slice(
      page.indexOf('## Layers'),
      page.indexOf('## A message through a turn'),
    );
    const rows = section
      .split('\n')
      .filter(line => /^\| [a-z-]+ \|/.test(line))
      // The header and its rule.
      .slice(2)
      .map(line => line.split('|').map(cell => cell.trim()));
    const drawn = rows.map(([, name, cell]) => ({
      name: name!,
      folders: [...cell!.matchAll(/`([\w-]+)\/`/g)].map(match => match[1]!),
    }));
    expect(drawn).toEqual([
      ...LAYERS.map(layer => ({ name: layer.name, folders: layer.folders })),
      { name: 'entry', folders: [] },
    ]);
    // Every folder of src/ is in one layer.
    const srcFolders = readdirSync(join(repoRoot, 'src'), { withFileTypes: true })
      .filter(entry => entry.isDirectory())
      .map(entry => entry.name);
    expect(LAYERS.flatMap(layer => layer.folders).toSorted()).toEqual(srcFolders.toSorted());
  });
});
