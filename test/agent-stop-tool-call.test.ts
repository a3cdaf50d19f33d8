/**
 * A stopped turn stops the tool call it is waiting on (docs/behaviour.md 6.7), through make() in
 * the daemon double under lockdown, the tools in workers of their own reached through E(): a turn
 * cancelled while `runCommand` runs (on its own, or through a tool source), or a call past the
 * agent's time limit, leaves no process of
 * the command behind and its later write never happens; a helper the HOST cancels stops its call
 * the same way; a FaeTool shaped as upstream Endo's is still called with `execute(args)` alone,
 * one that can be stopped through `executeUntil` (told once the call answered), and one whose
 * `executeUntil` throws or never answers leaves the agent serving the next message.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES, makeMailHost, type DaemonProfile } from '../sim/mail-host/index.js';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { callTool, say, type RecordedRequest, type Step } from './support/scripted-provider.js';
import { latestMessageNumber, textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { useTempFolders } from './support/temp-folders.js';
import { runningWith } from './tools-helpers.js';
import { lingering } from './support/lingering-command.js';

const runCommandUrl = new URL('../tools/run-command.ts', import.meta.url).href;
const probeUrl = new URL('./support/stop-probe-tool.ts', import.meta.url).href;
const toolSourceUrl = new URL('../tools/tool-source.ts', import.meta.url).href;
const runCommandPath = fileURLToPath(runCommandUrl);

const { start } = useAgents();
const makeTempFolder = useTempFolders();

// In bubblewrap where it works (as CI has it), else with the host's opt-out: the kill is the same.
const sandboxEnv: Record<string, string> =
  (await checkSandbox()) === undefined ? {} : { FAE_RUN_COMMAND_UNSANDBOXED: '1' };

const lastText = (request: RecordedRequest): string => request.messages.at(-1)!.content;

const replyTo = (request: RecordedRequest, text: string) =>
  callTool('reply', { messageNumber: latestMessageNumber(request), strings: [text] });

/** A daemon double whose HOST made these tool caplets, each in its own worker, to introduce to Fae. */
const hostWithTools = async (
  profile: DaemonProfile,
  tools: Record<string, { url: string; env: Record<string, string> }>,
) => {
  const host = makeMailHost({ profile });
  for (const [name, { url, env }] of Object.entries(tools))
    await E(host.host).makeUnconfined(`worker-${name}`, url, { resultName: name, env });
  const introducedNames = Object.fromEntries(Object.keys(tools).map(name => [name, name]));
  return { host, introducedNames };
};

const runCommandTool = (root: string) => ({
  'run-command': { url: runCommandUrl, env: { FAE_CWD: root, ...sandboxEnv } },
});

describe.each(DAEMON_PROFILES)('stopping a tool call on the %s daemon (behaviour 6.7)', profile => {
  /** Cancels the agent while runCommand, offered by `tools`, runs the lingering command in `root`. */
  const cancelWhileRunning = async (
    root: string,
    tools: Parameters<typeof hostWithTools>[1],
  ): Promise<void> => {
    const { marker, command } = lingering();
    const run = await start({
      ...(await hostWithTools(profile, tools)),
      persona: 'fae',
      // Neither the agent's limit nor the command's own ends it: only the stop can.
      env: { LAL_TOOL_TIMEOUT_MS: '600000' },
      steps: [callTool('runCommand', { command, timeoutMs: 120_000 })],
    });
    await run.send('run the long command');
    await expect.poll(() => runningWith(marker).length).toBeGreaterThan(0);
    await run.cancel();
    await expect.poll(() => runningWith(marker).length).toBe(0);
    expect(existsSync(join(root, 'out.txt'))).toBe(false);
  };

  test('a turn cancelled while runCommand runs: its process group is gone and its file never appears', async () => {
    const root = makeTempFolder('stop-run');
    await cancelWhileRunning(root, runCommandTool(root));
  });

  test("a tool source's runCommand is stopped the same way when its turn is cancelled", async () => {
    const root = makeTempFolder('stop-source');
    await cancelWhileRunning(root, {
      'tool-source': {
        url: toolSourceUrl,
        env: { TOOL_MODULES: runCommandPath, FAE_CWD: root, ...sandboxEnv },
      },
    });
  });

  test("a call past the agent's time limit is stopped too, and the agent serves the next message", async () => {
    const root = makeTempFolder('stop-late');
    const { marker, command } = lingering();
    const run = await start({
      ...(await hostWithTools(profile, runCommandTool(root))),
      persona: 'fae',
      env: { LAL_TOOL_TIMEOUT_MS: '3000' },
      steps: [
        callTool('runCommand', { command, timeoutMs: 120_000 }),
        request => replyTo(request, `saw: ${lastText(request)}`),
        request => replyTo(request, 'still here'),
      ],
    });
    await run.send('run the long command');
    expect(textOf(await run.reply(/^saw:/))).toMatch(/timed out after 3000 ms/);
    await expect.poll(() => runningWith(marker).length).toBe(0);
    expect(existsSync(join(root, 'out.txt'))).toBe(false);
    await run.send('are you there?');
    await run.reply('still here');
  });

  test('a helper the HOST cancels stops the command it runs', async () => {
    const root = makeTempFolder('stop-helper');
    const { marker, command } = lingering();
    const isHelpers = (request: RecordedRequest) =>
      request.messages[0]?.content.startsWith('You are a helper') === true;
    const agent: Step[] = [
      () => callTool('mail', { op: 'helper', description: 'Run it', grant: ['runCommand'] }),
      request => replyTo(request, 'helper made'),
      request => replyTo(request, `told: ${lastText(request).split('\n')[0]}`),
    ];
    const helper: Step[] = [callTool('runCommand', { command, timeoutMs: 120_000 })];
    const run = await start({
      ...(await hostWithTools(profile, runCommandTool(root))),
      persona: 'fae',
      env: { LAL_TOOL_TIMEOUT_MS: '600000' },
      // The agent and its helper run at once: each request takes the next step of its own script.
      steps: Array.from({ length: 4 }, (): Step => request => {
        const next = (isHelpers(request) ? helper : agent).shift();
        if (next === undefined || next instanceof Error) throw new Error('no step left');
        return typeof next === 'function' ? next(request, undefined, () => {}) : next;
      }),
    });
    await run.send('Run it with a helper.');
    await run.reply('helper made');
    await expect.poll(() => runningWith(marker).length).toBeGreaterThan(0);
    expect(await run.helpers('cancel', 'h1')).toMatch(/^Cancelled h1/);
    await run.reply(/^told: STOPPED: helper h1/);
    await expect.poll(() => runningWith(marker).length).toBe(0);
    expect(existsSync(join(root, 'out.txt'))).toBe(false);
  });

  test('an upstream-shaped FaeTool gets execute(args) alone; one that can be stopped gets executeUntil, told once it answered', async () => {
    const probeDir = makeTempFolder('stop-probe');
    const run = await start({
      ...(await hostWithTools(profile, {
        upstream: { url: probeUrl, env: { MODE: 'upstream', TOOL_NAME: 'upstream' } },
        stoppable: {
          url: probeUrl,
          env: { MODE: 'report', TOOL_NAME: 'stoppable', PROBE_DIR: probeDir },
        },
      })),
      persona: 'fae',
      steps: [
        callTool('upstream', {}),
        callTool('stoppable', {}),
        request => {
          const results = request.messages.filter(message => message.role === 'tool');
          return replyTo(request, results.map(message => message.content).join(' | '));
        },
      ],
    });
    await run.send('use both probes');
    const told = textOf(await run.reply(/execute/));
    expect(told).toBe('"execute, given 1 argument(s)" | "executeUntil"');
    await expect.poll(() => existsSync(join(probeDir, 'stopped.txt'))).toBe(true);
    expect(readFileSync(join(probeDir, 'stopped.txt'), 'utf8')).toBe('it answered');
  });

  test('a tool whose executeUntil throws, or never answers, leaves the agent serving the next message', async () => {
    const probeDir = makeTempFolder('stop-odd');
    const run = await start({
      ...(await hostWithTools(profile, {
        thrower: { url: probeUrl, env: { MODE: 'throw', TOOL_NAME: 'thrower' } },
        hanger: { url: probeUrl, env: { MODE: 'hang', TOOL_NAME: 'hanger', PROBE_DIR: probeDir } },
      })),
      persona: 'fae',
      env: { LAL_TOOL_TIMEOUT_MS: '500' },
      steps: [
        callTool('thrower', {}),
        request => replyTo(request, `thrower: ${lastText(request)}`),
        callTool('hanger', {}),
        request => replyTo(request, `hanger: ${lastText(request)}`),
        say('unused'),
      ],
    });
    await run.send('try the thrower');
    expect(textOf(await run.reply(/^thrower:/))).toMatch(/executeUntil failed on purpose/);
    await run.send('try the hanger');
    expect(textOf(await run.reply(/^hanger:/))).toMatch(/timed out after 500 ms/);
    // It was told to stop when the agent stopped waiting.
    await expect.poll(() => existsSync(join(probeDir, 'stopped.txt'))).toBe(true);
    expect(readFileSync(join(probeDir, 'stopped.txt'), 'utf8')).toBe(
      "it ran past the agent's limit of 500 ms",
    );
  });
});
