// What the command-line helpers share: whether dist/ is older than the
// TypeScript it is built from (every folder tsconfig.json compiles, read from
// its `include`, so no folder the programs import is missed), and building it
// only then.
import { spawnSync } from 'node:child_process';
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

// Builds with tsc when a source is newer than dist/ (or `force`); exits 1 when the build fails.
export const buildIfStale = ({ quiet = false } = {}) => {
  if (process.env.LAL_SIM_NO_BUILD === '1') return;
  const stale = staleSource();
  if (stale === undefined) return;
  if (!quiet) process.stderr.write(`Building (tsc): ${stale} is newer than dist/…\n`);
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], {
    cwd: root,
    encoding: 'utf8',
  });
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
    process.stderr.write(
      'The build failed (see above); fix it or run `npm run build` to see it again.\n',
    );
    process.exit(1);
  }
};

// `--help` or `-h` among the arguments: the program only prints its usage, so nothing is built.
export const asksForHelp = args => args.some(arg => arg === '--help' || arg === '-h');
