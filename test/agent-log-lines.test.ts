/**
 * A quiet, useful log (docs/configuration.md, LAL_LOG): one line a turn by
 * default, saying whom it served, how it ended, the model calls, the tools,
 * the tokens and the time; every step with LAL_LOG=steps; nothing with off.
 */
import { describe, expect, test } from 'vitest';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import { callTool, say } from './support/scripted-provider.js';
import { latestMessageNumber, replyStep, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** The log lines written while `send` is answered. */
const linesOfOneTurn = async (run: AgentRun, text: string, answer: string | RegExp) => {
  const before = run.logs.length;
  const ended = run.events.filter(event => event.kind === 'turn-end').length;
  await run.send(text);
  await run.reply(answer);
  await expect
    .poll(() => run.events.filter(event => event.kind === 'turn-end').length)
    .toBe(ended + 1);
  return run.logs.slice(before);
};

describe.each(DAEMON_PROFILES)('the log (%s)', profile => {
  test('by default, a ping is one line: whom, how it ended, calls, tools, tokens, time', async () => {
    const run = await start({ profile, steps: [replyStep('pong')] });
    const lines = await linesOfOneTurn(run, 'ping', 'pong');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^turn #\d+ from (HOST|@host): "ping": answered, 1 model call, tools: reply, \d+ in \/ \d+ out, \d+\.\d s$/,
    );
  });

  test('a turn line counts each tool and the failed ones', async () => {
    const run = await start({
      profile,
      steps: [
        callTool('names', { op: 'lookup', petNamePath: ['no-such-name'] }),
        callTool('names', { op: 'list' }),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['none'] }),
      ],
    });
    const lines = await linesOfOneTurn(run, 'look it up', 'none');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/: answered, 3 model calls, tools: names ×2, reply \(1 failed\), /);
  });

  test('a call put to the HOST for approval is named in the turn line, as waiting (issue 45)', async () => {
    const run = await start({
      profile,
      env: { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' },
      steps: [
        callTool('names', { op: 'makeDirectory', path: 'box' }),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['asked'] }),
      ],
    });
    const lines = await linesOfOneTurn(run, 'make a box', 'asked');
    expect(lines).toHaveLength(1);
    // Before, "tools: reply": the call sent for approval was not among them.
    expect(lines[0]).toMatch(
      /: answered, 2 model calls, tools: names \(waits for approval\), reply, /,
    );
  });

  test('LAL_LOG=steps writes every model call and tool call, as before', async () => {
    const run = await start({ profile, env: { LAL_LOG: 'steps' }, steps: [replyStep('pong')] });
    const lines = await linesOfOneTurn(run, 'ping', 'pong');
    expect(lines.map(line => line.replace(/[:(].*$/, ''))).toEqual([
      'turn',
      'model call 1',
      'model reply 1',
      '→ reply {"messageNumber"',
      '✓ reply {"replied"',
      'turn ended ',
    ]);
  });

  test('LAL_LOG=off: no turn line', async () => {
    const run = await start({
      profile,
      env: { LAL_LOG: 'off' },
      steps: [replyStep('pong'), say('')],
    });
    expect(await linesOfOneTurn(run, 'ping', 'pong')).toEqual([]);
  });
});
