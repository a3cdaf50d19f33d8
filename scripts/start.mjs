#!/usr/bin/env node
// `npm start`: builds the TypeScript when dist/ is missing or older than a
// source file, then runs the terminal simulator (dist/sim/chat/main.js) with
// the arguments given after `--`, passing on its exit code and signals.
// Set LAL_SIM_NO_BUILD=1 to skip the freshness check (the tests do, after
// `npm run build`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const entry = join(dist, 'sim', 'chat', 'main.js');
// What tsconfig.json compiles.
const sourceRoots = [
  'agent.ts',
  'setup.ts',
  'setup-tools.ts',
  'src',
  'providers',
  'tools',
  'sim',
  'bench',
];

const sourceFiles = path => {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return path.endsWith('.ts') && !path.endsWith('.d.ts') ? [path] : [];
  return readdirSync(path, { withFileTypes: true }).flatMap(item =>
    item.name === 'node_modules' ? [] : sourceFiles(join(path, item.name)),
  );
};

/** True when some source has no built .js, or is newer than it. */
const needsBuild = () => {
  if (!existsSync(entry)) return true;
  for (const source of sourceRoots.flatMap(name => sourceFiles(join(root, name)))) {
    const built = join(dist, relative(root, source)).replace(/\.ts$/, '.js');
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(source).mtimeMs) return true;
  }
  return false;
};

if (process.env.LAL_SIM_NO_BUILD !== '1' && needsBuild()) {
  process.stderr.write('Building (tsc)…\n');
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
}

// npm passes `--` through on some versions; drop it.
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
const child = spawn(process.execPath, [entry, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on('exit', (code, signal) => {
  if (signal !== null) {
    // Report it as a shell would: 128 + the signal's number.
    const numbers = { SIGINT: 2, SIGHUP: 1, SIGTERM: 15, SIGKILL: 9 };
    process.exit(128 + (numbers[signal] ?? 1));
  }
  process.exit(code ?? 1);
});
