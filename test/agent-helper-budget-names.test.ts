/**
 * A helper's budget items ("2 calls", "90s", "500 tokens", "model x") are written among the names
 * of its grant (behaviour 7.9) but are no pet names: the policy, which judges every path a call
 * gives (src/policy/call-paths.ts), must not ask the daemon about them. At f0a46042a a name with a
 * space is refused (`Invalid name "2 calls"`), and the daemon's CapTP writes each refused call into
 * the agent's worker log, stack and all: issue 46's "a quiet log, nothing raw" (docs/daemon-guide.md,
 * "Helpers"). Through make() in the daemon double under lockdown, on both profiles; every call the
 * double refuses is recorded on the way back (./support/refused-calls.ts).
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES, makeMailHost } from '../sim/mail-host/index.js';
import { callTool, makeScriptedProvider, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { recordRefusals } from './support/refused-calls.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;
const { start } = useAgents();

describe.each(DAEMON_PROFILES)('a helper budget on the %s daemon', profile => {
  test('its items are never looked up as pet names: the daemon refuses no call, and the helper is made', async () => {
    const { refused, wrap } = recordRefusals();
    let release: () => void = () => {};
    const released = new Promise<void>(resolve => {
      release = resolve;
    });
    let made = '';
    let done = '';
    const agent: Step[] = [
      () =>
        callTool('mail', {
          op: 'helper',
          description: 'What is 6 × 7?',
          grant: ['math', '2 calls', '90s', '500 tokens'],
        }),
      request => {
        made = request.messages.at(-1)!.content;
        release();
        return callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: ['A helper is on it.'],
        });
      },
      request => {
        done = request.messages.at(-1)!.content;
        return callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: ['It handed back.'],
        });
      },
    ];
    // The helper hands back once the agent's turn has made it, so the notice comes as a turn of its own.
    const helper: Step[] = [
      async () => {
        await released;
        return callTool('handBack', { result: '42' });
      },
    ];
    const host = makeMailHost({ profile });
    await E(host.host).makeUnconfined('worker-math', mathUrl, {
      resultName: 'math-tool',
      env: {},
    });
    const provider = makeScriptedProvider(
      Array.from(
        { length: agent.length + helper.length },
        () =>
          ((request, signal, onText) => {
            const own = request.messages[0]?.content.startsWith('You are a helper') === true;
            const next = (own ? helper : agent).shift()!;
            return typeof next === 'function' ? next(request, signal, onText) : next;
          }) as Step,
      ),
    );
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'math-tool': 'calculator' },
      provider,
      wrapPowers: wrap,
    });
    await run.send('What is 6 × 7? Ask a helper.');
    await run.reply('A helper is on it.');
    await run.reply('It handed back.');
    expect(JSON.parse(made)).toMatchObject({
      status: 'pending',
      helperId: 'h1',
      granted: ['math'],
    });
    expect(done).toMatch(/^DONE: helper h1 .*handed back: 42/);
    expect(refused.filter(line => line.includes('Invalid name'))).toEqual([]);
    expect(run.logs.join('\n')).not.toContain('Invalid name');
  });
});
