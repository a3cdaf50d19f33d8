/**
 * `npm run bench`: what a turn of the agent costs, measured with the agent
 * running under SES lockdown in the local mail host (the daemon double),
 * through the real provider SDK, against a zero-latency model server double
 * on 127.0.0.1 that replays scripted answers. Prints one table and writes
 * the same figures, with the machine, to bench-results/latest.json (not
 * tracked: each run's figures are the machine's, not the project's). It
 * reports targets met or missed and always exits 0: it is not a test.
 *
 * The figures:
 * 1. Model calls per message (bench/figure-model-calls.ts): a ping answered
 *    by each persona (reply, then a reply with no tool call), a proposal
 *    granted and reported (its message's turn + the outcome's turn), a tool
 *    adopted and used by Fae. Target: ping ≤ 2 (originals: Fae 3, Lal 4).
 * 2. Request size (bench/figure-request-size.ts): the HTTP body the server
 *    received for the 1st, 40th and 200th of consecutive ping/pong
 *    exchanges, and the largest, with the agent's token estimate. Target:
 *    200th ≤ 1.5× the 1st, none over LAL_CONTEXT_TOKENS (24000 by default).
 * 3. Agent overhead per turn (bench/figure-overhead.ts): send → turn-end
 *    minus time inside the model server, median and p95 over 100 turns, per
 *    protocol, broken down into SDK + HTTP, tool calls through the mail host,
 *    and the rest. Target: median ≤ 5 ms.
 * 4. Tool discovery (bench/figure-discovery.ts): 50 FaeTools in tools/; send →
 *    first model request, cold and warm, with the look-ups made. Target:
 *    warm = 0 look-ups.
 * 5. Memory (bench/figure-memory.ts): heap used after a full GC at 100 and
 *    1,000 exchanges of one conversation, and the growth. Target: flat.
 *    Figures 2 and 5 come from the same 1,000-exchange conversation
 *    (bench/run-conversation.ts).
 *
 * For a GC before each heap reading node needs --expose-gc: when it is
 * missing this entry runs itself again as a child with the flag.
 * 6. Prompt economy (bench/figure-prompt-economy.ts): per persona, the first
 *    request in real Qwen3 tokens (target ≤ 1,500), and over 200 exchanges
 *    the share of each request a prefix cache reuses, new tokens per request,
 *    requests that rewrote the beginning, bytes reusable (target ≥ 90%), the
 *    agent's estimate against the real count, and the daemon calls between a
 *    message's arrival and its reply (target: the reply alone).
 *
 * 7. MCP (bench/figure-mcp.ts): a warm call of an MCP server's tool through
 *    the bridge (server-everything's echo, sandboxed) beside a built-in
 *    FaeTool's, median and p95. Target: median ≤ 5 ms.
 * 8. Recall (bench/figure-recall.ts): five facts stated once each in the
 *    middle of 150 and 1,000 exchanges, asked for with mail's recall op
 *    (target: all five); the largest request of those turns; the bytes the
 *    store writes per exchange, early and late (targets: one chunk; flat).
 * 9. Each thread's prefix reuse (bench/figure-among-others.ts): the HOST
 *    and two peers in turn; the bytes a prefix cache can reuse from the
 *    thread's previous request (target ≥ 90% in each thread).
 * 10. The HOST's wait behind a peer's flood of 0, 100 and 1,000 messages
 *    (bench/figure-among-others.ts): the peer's model requests before the
 *    HOST's (target ≤ 1) and the model's answer → the reply (≤ 1 s).
 *
 * 11. Approvals (bench/figure-approvals.ts): the approvals the taint rule
 *     (behaviour 9.10) adds over twelve typical messages of the HOST's and a
 *     peer's. Target: only the three in which untrusted content could choose a
 *     side effect toward someone else.
 *
 * 12. Schedules (bench/figure-schedules.ts): model calls over a simulated
 *    day under a manual clock: idle with a 30-minute heartbeat (target 0),
 *    and a day of hourly reminders (target 24 turns).
 *
 * 13. The toolbox (bench/figure-toolbox.ts): the first request's system
 *    prompt and tools with 0, 25, 121 and 500 tools in tools/, in real
 *    Qwen3 tokens (121: within 3 KB of none), a search of 5,000 tools
 *    (target ≤ 50 ms), and through make() (bench/figure-toolbox-run.ts) the
 *    prefix reuse of 200 exchanges that find and use 10 tools (≥ 90%), the
 *    model calls a find costs (≤ 1 extra) and the first request with two
 *    MCP servers attached (≤ 7 KB).
 *
 * 14. Delegation (bench/figure-delegation.ts): model calls and wall time of
 *    "6 × 7" done directly and through a helper agent given only math
 *    (behaviour 7.9). Target: at most 3 calls more than directly.
 *
 * 15. A ping in a real daemon, measured in-process (bench/figure-real-daemon.ts):
 *    the daemon calls a ping makes before its model call, on both profiles
 *    (target 0, as with LAL_PROGRESS=0), a ping's time to its reply over a
 *    model-calling echo caplet's beside it (bench/model-echo.ts, target ≤ 1.05×)
 *    with the agent's time before the model request and after its answer, the
 *    bytes a ping to the agent allocates more than one to that echo
 *    (bench/allocation-per-ping.ts, target ≤ 620 KB), and a ping's time to its
 *    answer with live progress on over LAL_PROGRESS=0 (target ≤ 1.05×).
 *
 * 16. Channels (bench/figure-channels.ts): requests and bytes per message no
 *    one addressed to the agent at each level (observer: 0 for 100), and a
 *    mention's post → answer beside an inbox ping (1 call, ≤ 1.1×).
 *
 * BENCH_ONLY and BENCH_EXCHANGES: ./bench-settings.ts; --help: ./usage.ts.
 */
// As the daemon's worker does (worker-node.js at f0a46042a).
import '@endo/init';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readBenchSettings } from './bench-settings.js';
import { parseBenchArgs } from './bench-args.js';
import { BENCH_USAGE } from './usage.js';
import { printUsage } from '../sim/chat/print-lines.js';
import { progress } from './report.js';

const respawnWithGc = (): number => {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
      env: { ...process.env, LAL_BENCH_CHILD: '1' },
    },
  );
  return child.status ?? 1;
};

// The command line first: --help or a stray argument never starts minutes of figures.
const args = parseBenchArgs(process.argv.slice(2));
const settings = (() => {
  if (!args.ok || args.help) return undefined;
  try {
    return readBenchSettings(process.env);
  } catch (error) {
    progress((error as Error).message);
    return undefined;
  }
})();
if (!args.ok) {
  process.stderr.write(`${args.error}\n`);
  process.exitCode = 2;
} else if (args.help) {
  // Laid out at the terminal's width, as npm start's is (and as scripts/start.mjs prints it unbuilt).
  printUsage(process.stdout, BENCH_USAGE);
} else if (settings === undefined) {
  process.exitCode = 2;
} else if (
  typeof (globalThis as { gc?: unknown }).gc !== 'function' &&
  process.env.LAL_BENCH_CHILD === undefined
) {
  process.exitCode = respawnWithGc();
} else {
  import('./figures-run.js')
    .then(async ({ runFigures }) => runFigures(settings))
    .then(
      () => process.exit(0),
      (error: unknown) => {
        progress(
          `failed: ${error instanceof Error ? error.stack || error.message : String(error)}`,
        );
        process.exit(1);
      },
    );
}
