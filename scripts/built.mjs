// What the command-line helpers share: whether dist/ is older than the
// TypeScript it is built from (every folder tsconfig.json compiles, read from
// its `include`, so no folder the programs import is missed), and building it
// only then.
import { spawn } from 'node:child_process';
import { setInterval, clearInterval } from 'node:timers';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));
export const dist = join(root, 'dist');

// The files and folders tsconfig.json's `include` names (`setup/**/*.ts` → `setup`).
export const sourceRoots = () => {
  const text = readFileSync(join(root, 'tsconfig.json'), 'utf8');
  const { include } = JSON.parse(text);
  return include.map(pattern => pattern.replace(/\/\*\*\/\*\.ts$/, ''));
};

const sourceFiles = path => {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  return readdirSync(path, { withFileTypes: true }).flatMap(item =>
    item.name === 'node_modules' ? [] : sourceFiles(join(path, item.name)),
  );
};

// The first source with no built .js or newer than it (relative to the repository), or undefined.
export const staleSource = () => {
  for (const source of sourceRoots().flatMap(name => sourceFiles(join(root, name)))) {
    const built = join(dist, relative(root, source)).replace(/\.ts$/, '.js');
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs)
      return relative(root, source);
  }
  return undefined;
};

/** Seconds between two lines saying the build still runs (a first build takes a minute or two). */
const TICK_MS = 15_000;
/** How often dist/ is looked at while tsc writes (its own list of files comes only at its end). */
const POLL_MS = 500;

// The .js files under a folder written since `since` (ms), counted as tsc writes them.
const writtenSince = (folder, since) => {
  if (!existsSync(folder)) return 0;
  let count = 0;
  for (const item of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!item.isFile() || !item.name.endsWith('.js')) continue;
    try {
      if (statSync(join(item.parentPath ?? item.path, item.name)).mtimeMs >= since) count += 1;
    } catch {
      // Replaced as we looked: counted at the next look.
    }
  }
  return count;
};

// Builds with tsc when a source is newer than dist/ (or dist/ is missing); exits 1 when the build
// fails. A first build says so, and a line every TICK_MS and as tsc writes its files (seen in
// dist/ as they come: tsc lists them only once it is done) shows it is going on (tsc has no
// progress of its own: it checks types for most of the time, then writes).
export const buildIfStale = async ({ quiet = false } = {}) => {
  if (process.env.LAL_SIM_NO_BUILD === '1') return;
  const stale = staleSource();
  if (stale === undefined) return;
  const total = sourceRoots().flatMap(name => sourceFiles(join(root, name))).length;
  const say = text => quiet || process.stderr.write(`${text}\n`);
  say(
    existsSync(dist)
      ? `Building (tsc): ${stale} is newer than dist/…`
      : `First build (tsc): compiling ${total} TypeScript file${total === 1 ? '' : 's'} into dist/; it takes a minute or two, once…`,
  );
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const child = spawn(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let written = 0;
  let shownAt = 0;
  // Every quarter of the files, a line, when it is written: the checking is done, the writing shows.
  const look = () => {
    // A second's margin: a file system may keep times coarser than Date.now().
    written = Math.min(writtenSince(dist, started - 1000), total);
    if (
      written - shownAt >= Math.max(1, Math.ceil(total / 4)) ||
      (written === total && written > shownAt)
    ) {
      shownAt = written;
      say(`  written ${written} of ${total} files… ${seconds()} s`);
    }
  };
  const poller = setInterval(look, POLL_MS);
  const ticker = setInterval(
    () => say(written === 0 ? `  checking types… ${seconds()} s` : `  writing… ${seconds()} s`),
    TICK_MS,
  );
  child.stdout.on('data', chunk => (output += chunk.toString('utf8')));
  child.stderr.on('data', chunk => (output += chunk.toString('utf8')));
  const code = await new Promise(resolve => child.on('close', resolve));
  clearInterval(poller);
  clearInterval(ticker);
  if (code !== 0) {
    process.stderr.write(output);
    process.stderr.write(
      'The build failed (see above); fix it or run `npm run build` to see it again.\n',
    );
    process.exit(1);
  }
  look();
  say(`  built in ${seconds()} s.`);
};

// `--help` or `-h` among the arguments: the program only prints its usage, so nothing is built.
export const asksForHelp = args => args.some(arg => arg === '--help' || arg === '-h');

// A program's usage without dist/ (a fresh clone): its `usage.ts` beside its entry, which imports
// nothing, compiled alone in memory (the program prints the same text once built); undefined when
// the program has none, or it does not compile alone.
export const usageUnbuilt = async program => {
  const source = join(root, dirname(program), 'usage.ts');
  if (!existsSync(source)) return undefined;
  try {
    const ts = createRequire(import.meta.url)('typescript');
    const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    // `harden` is SES's, which the programs load first; a string needs none.
    const text = `const harden = value => value;\n${outputText}`;
    const module = await import(
      `data:text/javascript;base64,${Buffer.from(text).toString('base64')}`
    );
    return Object.entries(module).find(([name]) => name.endsWith('USAGE'))?.[1];
  } catch {
    return undefined;
  }
};
