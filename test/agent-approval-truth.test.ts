/**
 * What the agent tells about its approvals is true, as the daemon runs it
 * (under lockdown, through make() and E(), with the daemon double): the
 * request names the message it serves only when it serves one, a no that
 * comes after the agent stopped is told once (by the next run), and help()
 * says a call the HOST approved is running rather than waiting, and shows a
 * long call as a bounded preview with its whole length.
 * src/asks/approval-gate.ts, src/serving/agent-parts.ts ("Tool policy").
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import type { AssistantMessage } from '../providers/types.js';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say } from './support/scripted-provider.js';
import type { AgentRun, StartOptions } from './support/agent-harness.js';
import { guest, hostRequests, startWith as startWithShared } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { makeManualClock } from './support/manual-clock.js';

const { start } = useAgents();

const APPROVE = { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'alice' };

/** The "Tool policy" section's lines of help(). */
const policyLines = async (run: AgentRun): Promise<string[]> => {
  const section = /Tool policy:\n((?:- .*\n?)*)/.exec(await run.help());
  return (section?.[1] ?? '').split('\n').filter(line => line !== '');
};
/** Every notice the model was shown that starts with this word. */
const noticesOf = (run: AgentRun, word: string): string[] =>
  run.provider.requests.flatMap(request =>
    request.messages
      .filter(message => message.role === 'user' && message.content.startsWith(`${word}: `))
      .map(message => message.content),
  );

const startWith = (first: AssistantMessage, options: StartOptions = {}) =>
  startWithShared(start, first, options);

describe('the request to the HOST', () => {
  test('a gated call in a turn that serves no message (a wake-up of its own) names no message', async () => {
    const clock = makeManualClock();
    const run = await start({ clock, env: APPROVE });
    // A wake-up set with no message behind it, as the store keeps one.
    type Stored = { wakeUps: unknown[] };
    await expect.poll(() => guest(run).has('agent-state', 'memory')).toBe(true);
    const memory = JSON.parse(
      (await guest(run).lookup(['agent-state', 'memory'])) as string,
    ) as Stored;
    memory.wakeUps = [{ id: 'w1', at: clock.now() + 60_000, note: 'tidy up', setAt: clock.now() }];
    await guest(run).storeValue(harden(JSON.stringify(memory)), ['agent-state', 'memory']);
    await run.restart([callTool('makeDirectory', { petNamePath: ['box'] }), say('')]);
    clock.advance(60_000);
    await expect.poll(() => hostRequests(run)).toHaveLength(1);
    const [asked] = await hostRequests(run);
    expect(asked!.description).toBe(
      'Lal asks to call makeDirectory {"petNamePath":["box"]}, asked because LAL_TOOLS_APPROVE gates this tool (approval a1). Resolve this request with any value to allow it (endo resolve takes the name of a stored value: endo store --text yes --name yes, then resolve with yes); reject it, with a reason, to refuse.',
    );
  });
});

describe('a no after the agent stopped', () => {
  test('is told once, by the next run, and the call never runs', async () => {
    const { run, origin } = await startWith(callTool('makeDirectory', { petNamePath: ['box'] }), {
      env: APPROVE,
    });
    const [asked] = await hostRequests(run);
    await run.cancel();
    await E(run.host.host).reject(asked!.number, 'not now');
    await run.restartAgent([
      () => callTool('reply', { messageNumber: origin(), strings: ['HOST said no'] }),
    ]);
    await run.reply('HOST said no');
    const refused = noticesOf(run, 'REFUSED');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(
      /^REFUSED: HOST refused the call makeDirectory .*\(approval a1\): refused \(the reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was refused\)/,
    );
    expect(await guest(run).has('box')).toBe(false);
  });
});

describe('help() about approvals', () => {
  test('an approved call that is still running is listed as running, not as waiting', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined(
      'worker-tool',
      new URL('./support/misbehaving-tool.ts', import.meta.url).href,
      { resultName: 'slow-tool', env: { TOOL_NAME: 'slow', MODE: 'hang' } },
    );
    const { run } = await startWith(callTool('slow', {}), {
      host,
      persona: 'fae',
      introducedNames: { 'slow-tool': 'slow-tool' },
      env: { LAL_TOOLS_APPROVE: 'slow', LAL_TRUSTED_SENDERS: 'alice' },
    });
    expect(await policyLines(run)).toContain("- waiting for HOST's approval a1: slow {}");
    const [asked] = await hostRequests(run);
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked!.number, 'yes');
    await expect.poll(() => policyLines(run)).toContain('- approved by HOST, running: a1: slow {}');
    expect((await policyLines(run)).join('\n')).not.toMatch(/waiting for HOST's approval/);
  });

  test('a long call waiting is shown as a bounded preview with its whole length', async () => {
    const text = `${'0123456789'.repeat(1_000)}-the end`;
    const { run } = await startWith(callTool('send', { recipient: 'HOST', strings: [text] }), {
      env: { LAL_TOOLS_APPROVE: 'send', LAL_TRUSTED_SENDERS: 'alice' },
    });
    const whole = `send ${JSON.stringify({ recipient: 'HOST', strings: [text] })}`;
    const [line] = (await policyLines(run)).filter(entry => entry.includes('a1'));
    expect(line).toBe(
      `- waiting for HOST's approval a1: ${whole.slice(0, 200)}… (${whole.length} characters in all)`,
    );
    // The HOST's request itself still holds the whole call.
    const [asked] = await hostRequests(run);
    expect(asked!.description).toContain(whole);
  });
});
