#!/usr/bin/env node
// `npm test`'s last step: vitest, with the arguments given after `--`. Its
// colour library colours any output but a "dumb" terminal, a pipe or a file
// too; NO_COLOR is set when the output is not a terminal (unless FORCE_COLOR
// asks for colour), so a log or CI reads plain text.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

const env = { ...process.env };
if (process.stdout.isTTY !== true && env.FORCE_COLOR === undefined) env.NO_COLOR = '1';
// The package's bin (vitest.mjs beside its package.json, which it exports).
const vitest = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
const child = spawn(process.execPath, [vitest, 'run', ...args], { stdio: 'inherit', env });
child.on('exit', (code, signal) => process.exit(signal === null ? (code ?? 1) : 1));
