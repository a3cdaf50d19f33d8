#!/usr/bin/env node
// Interleaved ping-timer runs in real daemons, each daemon restarted before each of its runs
// (docs/benchmark.md, "Measuring both ratios in a real daemon"): the newest daemon's heap grows
// by about 200 KB a ping (it keeps every message), and a run on a grown heap pays for its
// collections, so a restart brings each run back to the same start. Each run appends its record
// to the daemon's file; at the end the pairs asked for are read from each file.
//
//   node scripts/speed-rounds.mjs --daemon new,/path/to/endo.cjs,/tmp/trial-new,127.0.0.1:8931 \
//     [--daemon f0a,/path/to/endo.cjs,/tmp/trial-f0a,,AGENT] [--runs 5] [--pings 20] [--warmup 2] \
//     [--out /tmp/speed-runs] [--pair quiet/echosdk …] quiet prog echosdk echo
//
// A daemon is label,cli,root[,address[,powers]]: its CLI (endo.cjs), the folder holding its
// state, run, config and cache folders (XDG_*), ENDO_ADDR when it is not the default, and the
// powers the timer runs with (@agent by default; AGENT at f0a46042a). Run from the lal-fae
// checkout after `npm run build`, with the guests and floors made as the page says.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const timer = 'dist/bench/real-daemon/ping-timer.js';
const summarise = join(root, 'dist/bench/real-daemon/summarise-runs.js');

const usage = () => {
  process.stderr.write(
    'usage: speed-rounds.mjs --daemon label,cli,root[,address[,powers]] … [--runs N] [--pings N] [--warmup N] [--out dir] [--pair a/b …] guest…\n',
  );
  process.exit(2);
};

const readArgs = argv => {
  const options = {
    daemons: [],
    runs: 5,
    pings: 20,
    warmup: 2,
    out: '/tmp/speed-runs',
    pairs: [],
    guests: [],
  };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    const next = () => {
      index += 1;
      return argv[index] ?? usage();
    };
    if (arg === '--daemon') {
      const [label, cli, stateRoot, address, powers] = next().split(',');
      if (!label || !cli || !stateRoot) usage();
      options.daemons.push({ label, cli, stateRoot, address, powers: powers || '@agent' });
    } else if (arg === '--runs') options.runs = Number(next());
    else if (arg === '--pings') options.pings = Number(next());
    else if (arg === '--warmup') options.warmup = Number(next());
    else if (arg === '--out') options.out = next();
    else if (arg === '--pair') options.pairs.push(next());
    else if (arg.startsWith('--')) usage();
    else options.guests.push(arg);
  }
  if (options.daemons.length === 0 || options.guests.length < 2) usage();
  if (!Number.isInteger(options.runs) || options.runs < 1) usage();
  return options;
};

const daemonEnv = ({ stateRoot, address }) => ({
  ...process.env,
  XDG_STATE_HOME: join(stateRoot, 'state'),
  XDG_RUNTIME_DIR: join(stateRoot, 'run'),
  XDG_CONFIG_HOME: join(stateRoot, 'config'),
  XDG_CACHE_HOME: join(stateRoot, 'cache'),
  ...(address ? { ENDO_ADDR: address } : {}),
});

const endo = (daemon, args, extraEnv = {}) =>
  spawnSync(process.execPath, [daemon.cli, ...args], {
    cwd: root,
    env: { ...daemonEnv(daemon), ...extraEnv },
    stdio: ['ignore', 'inherit', 'inherit'],
  });

const options = readArgs(process.argv.slice(2));
mkdirSync(options.out, { recursive: true });
const recordOf = daemon => join(options.out, `runs-${daemon.label}.jsonl`);
let failed = 0;
for (let run = 1; run <= options.runs; run += 1) {
  for (const daemon of options.daemons) {
    const load = loadavg().map(each => each.toFixed(2));
    process.stdout.write(
      `== run ${run} ${daemon.label} ${new Date().toISOString()} load ${load.join(' ')}\n`,
    );
    // The restart before each run: the daemon's heap starts where it started every other run.
    if (endo(daemon, ['restart']).status !== 0) {
      process.stdout.write(`${daemon.label}: endo restart failed; run ${run} skipped\n`);
      failed += 1;
      continue;
    }
    const timed = endo(
      daemon,
      ['run', '--UNCONFINED', timer, '--powers', daemon.powers, ...options.guests],
      {
        BENCH_PINGS: String(options.pings),
        BENCH_PING_WARMUP: String(options.warmup),
        BENCH_PING_RECORD: recordOf(daemon),
      },
    );
    if (timed.status !== 0) {
      process.stdout.write(`${daemon.label}: run ${run} failed\n`);
      failed += 1;
    }
  }
}
if (options.pairs.length > 0) {
  for (const daemon of options.daemons) {
    process.stdout.write(`== ${daemon.label}: ${recordOf(daemon)}\n`);
    spawnSync(process.execPath, [summarise, recordOf(daemon), ...options.pairs], {
      stdio: 'inherit',
    });
  }
}
process.exitCode = failed === 0 ? 0 : 1;
