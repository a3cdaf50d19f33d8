#!/usr/bin/env node
// `npm run mutation [-- NAME ...] [--incremental]`: mutation testing (Stryker, stryker.config.mjs)
// of the decision modules, one Stryker run per module so each run mutates one module and runs only
// the tests listed for it. Prints each module's score, then every surviving mutant. A module's
// score counts only its listed tests, so it is a lower bound of what the whole suite kills.
// docs/mutation.md: how to read it, and why each survivor left standing is equivalent.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const reportDir = join(root, 'reports', 'mutation');

/** Each decision module: the files Stryker mutates and the tests that judge them. */
const modules = [
  {
    name: 'check-reply-calls',
    mutate: ['src/loop/check-reply-calls.ts'],
    tests: ['test/loop-check-reply-calls.test.ts'],
  },
  {
    name: 'decode-arguments',
    mutate: ['src/encoding/decode-arguments.ts'],
    tests: [
      'test/encoding-decode-call.test.ts',
      'test/agent-encoding.test.ts',
      'test/agent-call-decision.test.ts',
    ],
  },
  {
    name: 'decode-call',
    mutate: ['src/agent-tools/decode-call.ts'],
    tests: [
      'test/encoding-decode-call.test.ts',
      'test/agent-call-decision.test.ts',
      'test/tools-grouped.test.ts',
    ],
  },
  {
    name: 'tool-arguments',
    mutate: [
      'src/agent-tools/validate-arguments.ts',
      'src/agent-tools/check-fae-arguments.ts',
      'src/agent-tools/tool-parameters.ts',
    ],
    tests: [
      'test/tools-definitions.test.ts',
      'test/tools-check-fae-arguments.test.ts',
      'test/tools-read-args.test.ts',
    ],
  },
  {
    name: 'policy',
    mutate: [
      'src/policy/guard-tool-call.ts',
      'src/policy/tool-policy.ts',
      'src/policy/describe-call.ts',
    ],
    tests: [
      'test/policy-tool-policy.test.ts',
      'test/agent-tool-policy.test.ts',
      'test/agent-call-decision.test.ts',
      'test/agent-pending-restart.test.ts',
      'test/agent-trust-follows-names.test.ts',
      // The seams' own judges: the facet's holds, the powers given, the taint (issue 43).
      'test/parties-facets.test.ts',
      'test/policy-powers-given.test.ts',
      'test/policy-taint.test.ts',
    ],
  },
  {
    name: 'confine',
    mutate: ['tools/lib/confine.ts'],
    tests: [
      'test/tools-confine.test.ts',
      'test/tools-confine-links.test.ts',
      'test/tools-confine-edges.test.ts',
      'test/tools-confine-no-proc.test.ts',
      'test/tools-confine-races.test.ts',
    ],
  },
  {
    name: 'sandbox-plan',
    mutate: ['tools/lib/sandbox/sandbox-plan.ts'],
    tests: [
      'test/tools-sandbox-plan.test.ts',
      'test/tools-sandbox-refusals.test.ts',
      'test/tools-run-command.test.ts',
      'test/tools-sandbox-args.test.ts',
    ],
  },
  {
    name: 'ask-life',
    mutate: ['src/asks/ask-life.ts'],
    tests: ['test/ask-life.test.ts', 'test/agent-ask-life.test.ts'],
  },
  {
    name: 'pending-asks',
    mutate: ['src/asks/pending-asks.ts'],
    tests: [
      'test/pending-asks.test.ts',
      'test/ask-life.test.ts',
      'test/agent-ask-life.test.ts',
      'test/agent-pending-restart.test.ts',
    ],
  },
  {
    name: 'proposal-tracker',
    mutate: ['src/asks/proposal-tracker.ts'],
    tests: [
      'test/proposals-tracker.test.ts',
      'test/agent-proposals.test.ts',
      'test/agent-ask-life.test.ts',
    ],
  },
  {
    name: 'outcome-words',
    mutate: ['src/asks/proposal-notices.ts', 'src/asks/outcome-label.ts'],
    tests: [
      'test/asks-outcome-label.test.ts',
      'test/asks-proposal-notices.test.ts',
      'test/agent-pending-restart.test.ts',
      'test/agent-proposals.test.ts',
    ],
  },
  {
    name: 'approval-gate',
    mutate: ['src/asks/approval-gate.ts'],
    tests: [
      'test/policy-approval-gate.test.ts',
      'test/agent-approval-truth.test.ts',
      'test/agent-tool-policy.test.ts',
      'test/agent-pending-restart.test.ts',
      'test/agent-ask-life.test.ts',
      'test/agent-call-decision.test.ts',
      // Ctrl-C on an approved running call (stopRunning).
      'test/agent-approved-call-cancelled.test.ts',
    ],
  },
  {
    // How a person's typed line answers an approval in `npm start` (y, n, a; behaviour 10.4).
    // sim-approvals judges it through the built simulator, which no mutant reaches.
    name: 'answer-approval',
    mutate: ['sim/chat/answer-approval.ts'],
    tests: ['test/sim-answer-approval.test.ts'],
  },
  {
    name: 'taint',
    mutate: [
      'src/policy/side-effects.ts',
      'src/policy/turn-taint.ts',
      'src/policy/call-paths.ts',
      'src/policy/model-words.ts',
    ],
    tests: ['test/policy-taint.test.ts', 'test/agent-untrusted-cannot-steer.test.ts'],
  },
  {
    name: 'facets',
    mutate: [
      'src/parties/party.ts',
      'src/parties/shared-tools.ts',
      'src/parties/party-schedules.ts',
      'src/parties/peer-powers.ts',
      'src/parties/facets.ts',
      'src/policy/powers-given.ts',
    ],
    tests: ['test/parties-facets.test.ts', 'test/policy-powers-given.test.ts'],
  },
  {
    name: 'channels',
    mutate: [
      'src/channels/channel-levels.ts',
      'src/channels/route-message.ts',
      'src/channels/mention-notice.ts',
      'src/channels/channel-thread.ts',
      'src/channels/channel-roster.ts',
      'src/channels/channel-budget.ts',
      'src/channels/channel-view.ts',
    ],
    tests: ['test/channels-decisions.test.ts'],
  },
  {
    name: 'labels',
    mutate: ['src/history/word-labels.ts'],
    tests: ['test/history-word-labels.test.ts', 'test/history-threads.test.ts'],
  },
  {
    name: 'party-slots',
    mutate: ['src/peers/party-slots.ts'],
    tests: ['test/peers-party-slots.test.ts'],
  },
  {
    name: 'streaming',
    mutate: ['providers/stall-watch.ts'],
    tests: ['test/providers-stall-watch.test.ts'],
  },
  {
    name: 'threads',
    mutate: ['src/history/threads.ts'],
    tests: ['test/history-threads.test.ts'],
  },
  {
    name: 'toolbox',
    mutate: ['src/toolbox/plan-offer.ts', 'src/toolbox/search-tools.ts', 'src/toolbox/toolbox.ts'],
    tests: ['test/toolbox-module.test.ts', 'test/toolbox-search.test.ts'],
  },
  {
    name: 'schedule',
    mutate: [
      'src/schedule/cron.ts',
      'src/schedule/recurrence.ts',
      'src/schedule/run-times.ts',
      'src/settings/durations.ts',
      'src/schedule/wake-up-record.ts',
    ],
    tests: [
      'test/schedule-recurrence.test.ts',
      'test/schedule-recurring.test.ts',
      'test/schedule-wake-ups.test.ts',
      'test/schedule-run-times.test.ts',
    ],
  },
  {
    name: 'helpers',
    mutate: [
      'src/helpers/narrowed-powers.ts',
      'src/helpers/helper-budget.ts',
      'src/helpers/helper-store.ts',
      'src/helpers/run-helper.ts',
    ],
    // The module tests: the agent-level ones (agent-helpers, agent-helpers-life) take minutes a mutant.
    tests: [
      'test/helpers-run-helper.test.ts',
      'test/helpers-narrowed-powers.test.ts',
      'test/helpers-budget-and-store.test.ts',
      'test/helpers-grant.test.ts',
    ],
  },
  {
    name: 'mcp-bridge',
    mutate: ['tools/mcp.ts', 'tools/lib/mcp/mcp-tool-schemas.ts', 'tools/lib/mcp/mcp-result.ts'],
    // The module tests (a connection double); mcp-misbehaving-server starts a server child and
    // mcp-fae an agent, each some seconds a mutant: both still run in `npm test`.
    tests: ['test/mcp-bridge-tools.test.ts', 'test/mcp-bridge-parts.test.ts'],
  },
  {
    name: 'work-queue',
    mutate: ['src/serving/work-queue.ts'],
    tests: ['test/work-queue.test.ts', 'test/serving-loop.test.ts'],
  },
  {
    name: 'sender-names',
    mutate: ['src/mail/sender-names.ts'],
    tests: ['test/mail-sender-names.test.ts'],
  },
  {
    name: 'tools-freshness',
    mutate: ['src/serving/tools-freshness.ts'],
    tests: [
      'test/serving-tools-freshness.test.ts',
      'test/agent-tools-freshness.test.ts',
      'test/agent-tools-follow-break.test.ts',
    ],
  },
  {
    name: 'revision-gate',
    mutate: ['src/mail/revision-gate.ts'],
    tests: [
      'test/mail-revision-gate.test.ts',
      'test/agent-revisions-queued.test.ts',
      'test/mail-host-newest.test.ts',
    ],
  },
  {
    name: 'memory-place',
    mutate: ['src/memory/memory-place.ts'],
    tests: ['test/memory-place.test.ts', 'test/memory-store.test.ts'],
  },
  {
    name: 'redacted-json',
    mutate: ['src/log/redacted-json.ts', 'providers/redact-secrets.ts'],
    tests: [
      'test/redacted-json.test.ts',
      'test/redact-secrets.test.ts',
      'test/agent-redaction.test.ts',
      'test/agent-output.test.ts',
    ],
  },
  {
    name: 'holds',
    mutate: ['src/lifecycle/holds.ts', 'src/memory/stored-holds.ts'],
    tests: [
      'test/lifecycle-holds.test.ts',
      'test/memory-store.test.ts',
      'test/peers-ledger-and-bounds.test.ts',
      'test/peers-conversation-bounds.test.ts',
      'test/agent-holds-restart.test.ts',
    ],
  },
  {
    name: 'peers',
    mutate: ['src/peers/conversation-bounds.ts', 'src/peers/sender-ledger.ts'],
    tests: [
      'test/peers-conversation-bounds.test.ts',
      'test/peers-ledger-and-bounds.test.ts',
      'test/agent-peers-host-unbounded.test.ts',
    ],
  },
  {
    name: 'explain-failure',
    mutate: ['src/builtin-tools/explain-failure.ts'],
    tests: [
      'test/tools-explain-failure.test.ts',
      'test/tools-teaching-errors.test.ts',
      'test/tools-teaching-errors-ops.test.ts',
    ],
  },
  {
    name: 'check-server',
    mutate: ['providers/check-server.ts', 'providers/model-names.ts', 'providers/bad-port.ts'],
    tests: [
      'test/providers-check-server-cases.test.ts',
      'test/providers-check-server.test.ts',
      'test/preflight-first-hour.test.ts',
      'test/providers-actionable-errors.test.ts',
    ],
  },
  {
    name: 'grant',
    mutate: ['src/helpers/grant.ts'],
    tests: ['test/helpers-grant.test.ts', 'test/agent-helpers.test.ts'],
  },
  {
    name: 'recall',
    mutate: [
      'src/recall/history-archive.ts',
      'src/recall/rank-bm25.ts',
      'src/recall/search-words.ts',
      'src/recall/search-history.ts',
    ],
    tests: [
      'test/recall-history.test.ts',
      'test/recall-ranking.test.ts',
      'test/recall-bounds.test.ts',
      'test/recall-search.test.ts',
    ],
  },
  {
    name: 'mcp-settings',
    mutate: ['tools/lib/mcp/mcp-settings.ts'],
    tests: ['test/mcp-settings-cases.test.ts', 'test/mcp-server-launch.test.ts'],
  },
  {
    name: 'mcp-bridge-plan',
    mutate: ['setup/mcp-bridge-plan.ts'],
    // The plan's unit cases; setup-mcp (which also reaches it) makes each mutant pay ~14 s.
    tests: ['test/mcp-settings-cases.test.ts'],
  },
  {
    name: 'tool-source',
    mutate: ['tools/tool-source.ts'],
    // The module's cases; setup-tool-source (the setup through the double) makes each mutant pay ~5 s.
    tests: ['test/tools-tool-source.test.ts'],
  },
  {
    name: 'tool-source-plan',
    mutate: ['setup/tool-source-plan.ts'],
    tests: ['test/setup-tool-source-plan.test.ts'],
  },
  {
    name: 'mcp-launch',
    mutate: ['tools/lib/mcp/server-launch.ts'],
    tests: ['test/mcp-server-launch.test.ts'],
  },
  {
    name: 'call-stop',
    mutate: [
      'src/loop/run-tool-call.ts',
      'src/builtin-tools/execute-tool.ts',
      'src/agent-tools/tool-shape.ts',
    ],
    tests: ['test/loop-call-stop.test.ts', 'test/loop-tool-hooks.test.ts'],
  },
  {
    // The simulator's parts that decide what a person sees of an agent made again: the Ctrl-C stop
    // and what waits through it, the words an agent made again since it asked is sent, and the
    // channels kept between runs (the newest daemon's double). Judged by their module tests only.
    name: 'sim-made-again',
    mutate: ['sim/chat/interrupt.ts', 'sim/chat/lost-words.ts', 'sim/mail-host/kept-channels.ts'],
    tests: [
      'test/sim-interrupt.test.ts',
      'test/sim-lost-words.test.ts',
      'test/sim-kept-channels.test.ts',
      'test/sim-kept-daemon.test.ts',
    ],
  },
  {
    // The names held against the daemon's collection (behaviour 9.13): which hand-overs are held,
    // under which name, and the names an earlier worker left let go at start. The module tests:
    // agent-made-names-kept (both daemons through make()) takes most of an hour a run here, and
    // still runs in `npm test`.
    name: 'held-formulas',
    mutate: ['src/daemon/held-formulas.ts'],
    tests: ['test/held-formulas.test.ts', 'test/held-formulas-hold.test.ts'],
  },
  {
    // Which `npm start` holds a state folder, and when a lock is stale (behaviour 10.1);
    // sim-state-lock judges it with two built simulators, which no mutant reaches.
    name: 'state-lock',
    mutate: ['sim/chat/state-lock.ts'],
    tests: ['test/sim-state-lock-cases.test.ts'],
  },
  {
    // The disposal hook that lets a stopped run's last write finish (issue 45).
    name: 'last-write',
    mutate: ['src/lifecycle/last-write.ts'],
    tests: [
      'test/lifecycle-last-write.test.ts',
      'test/agent-approved-call-cancelled.test.ts',
      'test/agent-cancelled-usage.test.ts',
    ],
  },
  {
    // The rules that refuse `npm start`'s bad settings and the flags npm ate (issue 45); the
    // sim-bad-settings and sim-npm-flags suites judge them through the built programs.
    name: 'setting-problems',
    mutate: ['sim/chat/setting-problems.ts'],
    tests: ['test/sim-setting-problems.test.ts'],
  },
  {
    name: 'npm-flags',
    mutate: ['sim/npm-flags.ts'],
    tests: ['test/sim-npm-flags-cases.test.ts'],
  },
];

const args = process.argv.slice(2);
const usage = `usage: npm run mutation [-- NAME ...] [--incremental]
  NAME           only these modules: ${modules.map(m => m.name).join(', ')}
  --incremental  reuse the previous run's results for mutants whose code and tests did not change
  (docs/mutation.md: the scores, and why each survivor left standing is equivalent)
`;
if (args.includes('--help')) {
  process.stdout.write(usage);
  process.exit(0);
}
const badOptions = args.filter(arg => arg.startsWith('--') && arg !== '--incremental');
if (badOptions.length > 0) {
  process.stderr.write(`Unknown option ${badOptions.join(', ')}\n${usage}`);
  process.exit(2);
}
const incremental = args.includes('--incremental');
const wanted = args.filter(arg => !arg.startsWith('--'));
const unknown = wanted.filter(name => !modules.some(m => m.name === name));
if (unknown.length > 0) {
  process.stderr.write(
    `Unknown module ${unknown.join(', ')}; known: ${modules.map(m => m.name).join(', ')}\n`,
  );
  process.exit(2);
}
const chosen = wanted.length > 0 ? modules.filter(m => wanted.includes(m.name)) : modules;

const stryker = join(root, 'node_modules', '.bin', 'stryker');
mkdirSync(reportDir, { recursive: true });

// Stryker's JSON report: every mutant of the run, with its status and the line it changed.
const readReport = file => {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  return Object.entries(report.files).flatMap(([path, { source, mutants }]) => {
    const lines = source.split('\n');
    return mutants.map(mutant => ({
      ...mutant,
      path,
      code: (lines[mutant.location.start.line - 1] ?? '').trim(),
    }));
  });
};

const detected = new Set(['Killed', 'Timeout']);
const counted = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

const results = [];
for (const module of chosen) {
  const report = join(reportDir, `${module.name}.json`);
  const runArgs = ['run', 'stryker.config.mjs', '--mutate', module.mutate.join(',')];
  if (incremental) {
    runArgs.push(
      '--incremental',
      '--incrementalFile',
      join('reports', 'mutation', `${module.name}.incremental.json`),
    );
  }
  process.stdout.write(`\n=== ${module.name}: ${module.mutate.join(', ')}\n`);
  const run = spawnSync(stryker, runArgs, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      LAL_MUTATION_REPORT: report,
      LAL_MUTATION_TESTS: module.tests.join(','),
    },
  });
  if (run.status !== 0 || !existsSync(report)) {
    results.push({ name: module.name, failed: `stryker exited with ${run.status ?? run.signal}` });
    continue;
  }
  const mutants = readReport(report);
  const scored = mutants.filter(m => counted.has(m.status));
  const killed = scored.filter(m => detected.has(m.status)).length;
  results.push({
    name: module.name,
    killed,
    total: scored.length,
    score: scored.length === 0 ? 100 : (100 * killed) / scored.length,
    survivors: scored.filter(m => !detected.has(m.status)),
  });
}

process.stdout.write('\nMutation score per decision module (target >= 90%, none below 85%)\n');
for (const result of results) {
  if (result.failed) {
    process.stdout.write(`  ${result.name.padEnd(22)} FAILED (${result.failed})\n`);
    continue;
  }
  const mark = result.score >= 90 ? 'ok' : result.score >= 85 ? 'low' : 'BELOW';
  process.stdout.write(
    `  ${result.name.padEnd(22)} ${result.score.toFixed(1).padStart(5)}%  ${String(result.killed).padStart(4)} / ${String(result.total).padEnd(4)} ${mark}\n`,
  );
}
for (const result of results.filter(r => r.survivors?.length)) {
  process.stdout.write(`\nSurvivors in ${result.name}:\n`);
  for (const m of result.survivors) {
    const where = `${m.path}:${m.location.start.line}:${m.location.start.column}`;
    const replacement = m.replacement === undefined ? '' : ` -> ${JSON.stringify(m.replacement)}`;
    process.stdout.write(`  ${where} ${m.status} ${m.mutatorName}${replacement}\n    ${m.code}\n`);
  }
}
process.exitCode = results.some(r => r.failed) ? 1 : 0;
