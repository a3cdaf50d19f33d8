#!/usr/bin/env node
// `npm start`, `npm run transcript`, `npm run bench`, `npm run conformance`:
// builds the TypeScript only when dist/ is missing or older than a source
// file (./built.mjs), then runs the program (the terminal simulator unless
// `--program <dist path>` names another) with the arguments given after `--`,
// passing on its exit code and signals. `--help` never builds: with no dist/
// yet, the program's usage comes from its usage.ts, laid out as the built program lays it out,
// both compiled from their sources (./built.mjs). Set
// LAL_SIM_NO_BUILD=1 to skip the freshness check (the tests do, after
// `npm run build`). package.json runs it with `exec`: npm passes a signal
// (`kill <npm's pid>`) to the shell of its script, and a shell that does not
// exec its one command would die of it and leave this process and its child
// running (issue 45); exec'd, this process gets the signal and passes it on.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { asksForHelp, buildIfStale, dist, printUsageUnbuilt } from './built.mjs';

// npm passes `--` through on some versions; drop it.
let args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--'));
let program = 'sim/chat/main.js';
const named = args.indexOf('--program');
if (named >= 0 && args[named + 1] !== undefined) {
  program = args[named + 1];
  args = [...args.slice(0, named), ...args.slice(named + 2)].filter(
    (arg, index) => !(index === 0 && arg === '--'),
  );
}
const entry = join(dist, program);

if (asksForHelp(args) && !existsSync(entry)) {
  // A fresh clone: the usage without the first build's minute or two.
  if (await printUsageUnbuilt(program)) process.exit(0);
}
if (!asksForHelp(args) || !existsSync(entry)) await buildIfStale();

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
