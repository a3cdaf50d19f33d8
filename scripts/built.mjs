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

// Loaded in tsc's process before it (`--import`): each .js file it opens to write is named on
// descriptor 3, as it writes it (tsc lists its files only once it is done). The build's progress
// counts these, its own, not what is new in dist/: another build writing the same dist/ at the same
// time (npm test's, a second terminal's) made that count jump to the end at once (issue 45).
const REPORT_WRITES = `
import fs from 'node:fs';
const report = path => {
  if (String(path).endsWith('.js')) {
    try { fs.writeSync(3, String(path) + '\\n'); } catch {}
  }
};
const { openSync, writeFileSync } = fs;
fs.openSync = function (path, flags, ...rest) {
  const fd = openSync.call(this, path, flags, ...rest);
  if (flags === 'w') report(path);
  return fd;
};
fs.writeFileSync = function (path, ...rest) {
  writeFileSync.call(this, path, ...rest);
  if (typeof path === 'string') report(path);
};
`;

// Builds with tsc when a source is newer than dist/ (or dist/ is missing); exits 1 when the build
// fails. A first build says so, and a line every TICK_MS and as tsc writes its files (each named
// by tsc's process as it writes it: REPORT_WRITES) shows it is going on (tsc has no progress of
// its own: it checks types for most of the time, then writes).
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
  const preload = `data:text/javascript,${encodeURIComponent(REPORT_WRITES)}`;
  const child = spawn(
    process.execPath,
    ['--import', preload, tsc, '-p', join(root, 'tsconfig.json')],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  /** The .js files this build has written: named by its tsc as it writes them. */
  const own = new Set();
  let named = '';
  let written = 0;
  let shownAt = 0;
  // Every quarter of the files, a line, when it is written: the checking is done, the writing shows.
  const look = () => {
    written = own.size;
    if (
      written - shownAt >= Math.max(1, Math.ceil(total / 4)) ||
      (written === total && written > shownAt)
    ) {
      shownAt = written;
      say(`  written ${written} of ${total} files… ${seconds()} s`);
    }
  };
  child.stdio[3].on('data', chunk => {
    named += chunk.toString('utf8');
    const lines = named.split('\n');
    named = lines.pop();
    for (const line of lines) own.add(line);
    look();
  });
  const ticker = setInterval(
    () => say(written === 0 ? `  checking types… ${seconds()} s` : `  writing… ${seconds()} s`),
    TICK_MS,
  );
  child.stdout.on('data', chunk => (output += chunk.toString('utf8')));
  child.stderr.on('data', chunk => (output += chunk.toString('utf8')));
  const code = await new Promise(resolve => child.on('close', resolve));
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

// A TypeScript module and what it imports, compiled in memory (no dist/ yet: a fresh clone), as a
// data: address to import: each relative import compiled in turn, a package's named by its file's
// address (a data: module resolves no relative or bare name), node's own as it is. `harden` is
// SES's, which the programs load first; these modules' exports need none before they are built.
const compiledModule = (source, seen = new Map()) => {
  // Undefined while it is being compiled: a cycle, which data: addresses cannot close.
  if (seen.has(source)) return seen.get(source);
  seen.set(source, undefined);
  const ts = createRequire(import.meta.url)('typescript');
  const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const linked = outputText.replace(
    /(\b(?:from|import)\s*)(['"])([^'"]+)\2/g,
    (whole, lead, quote, name) => {
      if (name.startsWith('node:')) return whole;
      const address = name.startsWith('.')
        ? compiledModule(join(dirname(source), name.replace(/\.js$/, '.ts')), seen)
        : import.meta.resolve(name);
      if (address === undefined) throw Error(`${source} imports itself through ${name}`);
      return `${lead}${quote}${address}${quote}`;
    },
  );
  const text = `const harden = value => value;\n${linked}`;
  const address = `data:text/javascript;base64,${Buffer.from(text).toString('base64')}`;
  seen.set(source, address);
  return address;
};

/** Where the usages are laid out for the terminal, built or not (their programs import it too). */
const USAGE_LAYOUT = join(root, 'sim', 'chat', 'print-lines.ts');

// `--help` without dist/ (a fresh clone): the program's usage from its `usage.ts` beside its entry
// (its export named …USAGE), printed by print-lines.ts's printUsage, as the built program prints
// it (laid out at the terminal's width: one layout), both compiled from their sources; false when
// the program has no usage.ts or it does not compile, and the caller builds and runs it instead.
export const printUsageUnbuilt = async program => {
  const source = join(root, dirname(program), 'usage.ts');
  if (!existsSync(source)) return false;
  let usage;
  try {
    const module = await import(compiledModule(source));
    usage = Object.entries(module).find(([name]) => name.endsWith('USAGE'))?.[1];
  } catch {
    return false;
  }
  if (typeof usage !== 'string') return false;
  try {
    const { printUsage } = await import(compiledModule(USAGE_LAYOUT));
    printUsage(process.stdout, usage);
  } catch {
    // The layout did not compile alone: the usage as it is written (for 80 columns).
    process.stdout.write(`${usage}\n`);
  }
  return true;
};
