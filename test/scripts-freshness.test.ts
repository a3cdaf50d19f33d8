/**
 * The command-line helpers (`npm start`, `npm run transcript`, `bench`,
 * `conformance`, all through scripts/start.mjs) build only when dist/ is
 * older than a source, never for `--help`, and look at every folder
 * tsconfig.json compiles, so no folder the simulator imports is missed.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
// The script is plain JavaScript (it runs before anything is built): imported by its address.
const builtScript = new URL('../scripts/built.mjs', import.meta.url).href;
const { sourceRoots } = (await import(builtScript)) as { sourceRoots: () => string[] };
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The top folders (or files) of the repository that a folder's modules import. */
const importedTops = (folder: string): Set<string> => {
  const tops = new Set<string>();
  const walk = (path: string) => {
    for (const item of readdirSync(path, { withFileTypes: true })) {
      const inner = join(path, item.name);
      if (item.isDirectory()) walk(inner);
      else if (item.name.endsWith('.ts')) {
        const text = readFileSync(inner, 'utf8');
        for (const [, target] of text.matchAll(/from '((?:\.\.\/)+[^']+)'/g)) {
          const resolved = join(path, target!).slice(repoRoot.length);
          tops.add(resolved.split('/')[0]!.replace(/\.js$/, '.ts'));
        }
      }
    }
  };
  walk(join(repoRoot, folder));
  return tops;
};

/** A repository of its own with the helper scripts alone (scripts/start.mjs and built.mjs). */
const scriptsRepo = (label: string): string => {
  const repo = makeTempFolder(label);
  mkdirSync(join(repo, 'scripts'));
  for (const name of ['start.mjs', 'built.mjs'])
    cpSync(join(repoRoot, 'scripts', name), join(repo, 'scripts', name));
  return repo;
};

/** The eight sources under sim/chat of a repository with a stand-in tsc. */
const sources = ['main', 'a', 'b', 'c', 'd', 'e', 'f', 'g'];

/**
 * A repository whose eight sources are empty and whose tsc is a stand-in script: it makes
 * dist/sim/chat and defines `write(name)` (main.js prints `ran`), then runs `body`'s lines, which
 * read `repo`, `names` and `out`. A file `go` in the repository is the word to go on.
 */
const standInTscRepo = (label: string, body: (root: string) => string[]): string => {
  const repo = scriptsRepo(label);
  writeFileSync(join(repo, 'tsconfig.json'), JSON.stringify({ include: ['sim/**/*.ts'] }));
  mkdirSync(join(repo, 'sim', 'chat'), { recursive: true });
  for (const name of sources) writeFileSync(join(repo, 'sim', 'chat', `${name}.ts`), '');
  const fake = join(repo, 'node_modules', 'typescript');
  mkdirSync(join(fake, 'bin'), { recursive: true });
  writeFileSync(join(fake, 'package.json'), '{"name":"typescript","version":"0.0.0"}');
  writeFileSync(
    join(fake, 'bin', 'tsc'),
    [
      "const { existsSync, mkdirSync, writeFileSync } = require('node:fs');",
      "const { join } = require('node:path');",
      `const repo = ${JSON.stringify(repo)};`,
      `const names = ${JSON.stringify(sources)};`,
      "const out = join(repo, 'dist', 'sim', 'chat');",
      'mkdirSync(out, { recursive: true });',
      "const write = name => writeFileSync(join(out, name + '.js'), name === 'main' ? \"process.stdout.write('ran')\" : '');",
      ...body(repo),
    ].join('\n'),
  );
  return repo;
};

/**
 * Runs `npm start` (scripts/start.mjs) in `repo` to its end, writing `go` there once a line of
 * progress is seen; what it wrote to stderr.
 */
const startUntilProgress = async (repo: string): Promise<string> => {
  const { LAL_SIM_NO_BUILD: _skip, ...env } = process.env;
  const child = spawn(process.execPath, [join(repo, 'scripts', 'start.mjs')], { env });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (/written \d+ of 8 files/.test(stderr)) writeFileSync(join(repo, 'go'), '');
  });
  await new Promise(resolve => child.on('close', resolve));
  return stderr;
};

describe('the helper commands build only when they must', () => {
  it('the freshness check covers every folder the simulator and the transcript import', () => {
    const roots = new Set(sourceRoots());
    for (const top of [...importedTops('sim'), 'sim', 'bench', 'conformance'])
      expect(roots, `${top} is imported but not checked`).toContain(top);
    expect(roots).toContain('setup');
  });

  it(
    "shows the first build's progress as tsc writes, not all at its end",
    async () => {
      // A stand-in for tsc that writes half its files, then waits for the word that a line of
      // progress was seen before it writes the rest and, as tsc does, lists them all at its end.
      const repo = standInTscRepo('progress', () => [
        'names.slice(0, 4).forEach(write);',
        'const until = Date.now() + 20000;',
        'const rest = () => {',
        "  if (!existsSync(join(repo, 'go')) && Date.now() < until) return setTimeout(rest, 50);",
        "  if (!existsSync(join(repo, 'go'))) writeFileSync(join(repo, 'timed-out'), '');",
        '  names.slice(4).forEach(write);',
        "  process.stdout.write(names.map(name => 'TSFILE: ' + join(out, name + '.js')).join('\\n') + '\\n');",
        '};',
        'rest();',
      ]);
      const stderr = await startUntilProgress(repo);
      // The line came while tsc was still writing (a quarter of its files or more, as each is named
      // by its process): it did not have to wait for tsc's list.
      expect(existsSync(join(repo, 'timed-out')), stderr).toBe(false);
      expect(stderr).toMatch(
        /^First build \(tsc\): compiling 8 TypeScript files into dist\/; it takes a minute or two, once…\n(?: {2}checking types… \d+ s\n)*(?: {2}written [2-4] of 8 files… \d+ s\n)+[\s\S]* {2}written 8 of 8 files… \d+ s\n {2}built in \d+ s\.\n$/,
      );
    },
    TEST_MS,
  );

  it(
    "counts only its own build's files, not another build's writing the same dist/",
    async () => {
      // A stand-in for tsc beside another build (npm test's, a second terminal's) that writes all of
      // dist/ as it starts: it writes two of its own files, then waits for the word that a line of
      // progress was seen before it writes the rest (issue 45, trial 12: the count went by dist/).
      const repo = standInTscRepo('another', root => {
        const other = sources
          .map(name => {
            const path = JSON.stringify(join(root, 'dist', 'sim', 'chat', `${name}.js`));
            return `require('node:fs').writeFileSync(${path}, '')`;
          })
          .join(';');
        return [
          `require('node:child_process').spawnSync(process.execPath, ['-e', ${JSON.stringify(other)}]);`,
          'names.slice(0, 2).forEach(write);',
          'const until = Date.now() + 20000;',
          'const rest = () => {',
          "  if (!existsSync(join(repo, 'go')) && Date.now() < until) return setTimeout(rest, 50);",
          '  names.slice(2).forEach(write);',
          '};',
          'rest();',
        ];
      });
      const stderr = await startUntilProgress(repo);
      const counts = [...stderr.matchAll(/written (\d+) of 8 files/g)].map(found =>
        Number(found[1]),
      );
      // Its own two first, then up to its eight: never the other build's eight before its own.
      expect(counts[0], stderr).toBe(2);
      expect(counts.at(-1), stderr).toBe(8);
      expect(counts, stderr).toEqual([...counts].sort((a, b) => a - b));
      expect(stderr).toMatch(/ {2}built in \d+ s\.\n$/);
    },
    TEST_MS,
  );

  it(
    'builds when a source is newer than dist/, not when dist/ is fresh, and never for --help',
    () => {
      const repo = scriptsRepo('fresh');
      symlinkSync(join(repoRoot, 'node_modules'), join(repo, 'node_modules'));
      writeFileSync(
        join(repo, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            outDir: 'dist',
            rootDir: '.',
            types: [],
            skipLibCheck: true,
          },
          include: ['sim/**/*.ts'],
        }),
      );
      mkdirSync(join(repo, 'sim', 'chat'), { recursive: true });
      const source = join(repo, 'sim', 'chat', 'main.ts');
      writeFileSync(
        source,
        [
          'declare const process: { argv: string[]; stdout: { write(text: string): void } };',
          "process.stdout.write('ran ' + process.argv.slice(2).join(' '));",
        ].join('\n'),
      );
      const run = (...args: string[]) => {
        const { LAL_SIM_NO_BUILD: _skip, ...env } = process.env;
        return spawnSync(process.execPath, [join(repo, 'scripts', 'start.mjs'), ...args], {
          encoding: 'utf8',
          env,
        });
      };
      // No dist/ yet: the first build says so, and how it goes (on a busy machine with a line
      // each tick of the wait, scripts/built.mjs's TICK_MS, before and after the file is written).
      const first = run();
      expect(first.stderr).toMatch(
        /^First build \(tsc\): compiling 1 TypeScript file into dist\/; it takes a minute or two, once…\n(?: {2}checking types… \d+ s\n)* {2}written 1 of 1 files… \d+ s\n(?: {2}writing… \d+ s\n)* {2}built in \d+ s\.\n$/,
      );
      expect(first.stdout).toBe('ran ');
      const again = run('--', 'hello');
      expect(again.stderr).toBe('');
      expect(again.stdout).toBe('ran hello');
      // A source newer than what was built: --help runs what is there, the next start builds.
      const later = new Date(Date.now() + 60_000);
      utimesSync(source, later, later);
      const help = run('--help');
      expect(help.stderr).toBe('');
      expect(help.stdout).toBe('ran --help');
      expect(run().stderr).toMatch(/^Building \(tsc\): sim\/chat\/main\.ts is newer than dist\//);
    },
    2 * TEST_MS,
  );
});
