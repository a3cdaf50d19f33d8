/**
 * Tools given to a running agent (docs/behaviour.md, behaviour 6), as seen in
 * both real daemons (issue 23, defects 1 and 2):
 * - a tool stored into a running Fae's tools/ after it served a turn is
 *   offered on its very next turn (the agent follows tools/'s name changes,
 *   which both daemons offer: `followNameChanges` on the directory);
 * - a tools/ the daemon at f0a46042a collected while the agent ran (its name
 *   left pointing at a formula that is gone) is made again, and the tools
 *   left at the top level move into it.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost, type DaemonProfile } from '../sim/mail-host/index.js';
import { say } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';
import { nextCall } from './support/agent-observers.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

const { start } = useAgents();

const offersMath = (toolNames: string[]) => `math offered: ${toolNames.includes('math')}`;

describe.each<DaemonProfile>(['f0a46042a', 'newest'])('tools/ freshness (%s)', profile => {
  test('a tool stored into tools/ after a turn is offered on the next turn', async () => {
    const host = makeMailHost({ profile });
    await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
    const run = await start({
      host,
      persona: 'fae',
      steps: [
        request => say(offersMath(request.toolNames)),
        request => say(offersMath(request.toolNames)),
      ],
    });
    const saved = nextCall(host, 'fae', 'storeValue', 'reply');
    await run.send('one');
    await run.reply('math offered: false');
    // The turn is over (its memory written after the after-turn check): the agent is idle.
    await saved;
    // What setup-tools does for a running agent (FAE_GUEST=fae): the tool goes into its tools/.
    const id = await E(host.host).identify('math-tool');
    const fae = host.guest('fae').powers;
    const store = profile === 'newest' ? 'storeIdentifier' : 'write';
    await (E(fae) as unknown as Record<string, (path: string[], id: unknown) => Promise<void>>)[
      store
    ]!(['tools', 'calculator'], id);
    await run.send('two');
    await run.reply('math offered: true');
    // Both followers (tools/, and the names senders go by) read this daemon's kind of stream.
    expect(run.logs.join('\n')).not.toMatch(/cannot follow tools|could not follow name changes/);
  });
});

test('an unchanged tools/ costs no round trip before a turn', async () => {
  const host = makeMailHost();
  const run = await start({ host, persona: 'fae', steps: [say('first'), say('second')] });
  const saved = nextCall(host, 'fae', 'storeValue', 'reply');
  await run.send('one');
  await run.reply('first');
  await saved;
  const calls: string[] = [];
  const stop = host.traceCalls('fae', method => calls.push(method));
  await run.send('two');
  const reply = await run.reply('second');
  stop();
  expect(reply).toBeDefined();
  // The reply went out before any look at tools/ (only the after-turn check may follow it).
  const replied = calls.indexOf('reply');
  expect(replied).toBeGreaterThanOrEqual(0);
  expect(calls.slice(0, replied)).not.toContain('listIdentifiers');
});

describe('tools/ collected while the agent runs (f0a46042a)', () => {
  test('is made again and the tools left at the top level move into it', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
    const run = await start({
      host,
      persona: 'fae',
      steps: [
        request => say(offersMath(request.toolNames)),
        request => say(offersMath(request.toolNames)),
        request => say(offersMath(request.toolNames)),
      ],
    });
    const saved = nextCall(host, 'fae', 'storeValue', 'reply');
    await run.send('one');
    await run.reply('math offered: false');
    await saved;
    const fae = host.guest('fae').powers;
    // The daemon's make-then-name race: tools names a directory collected before it was named.
    host.collectDuringNextMakeDirectory();
    await E(fae).makeDirectory('tools');
    await expect(E(fae).list('tools')).rejects.toThrow(/No reference exists/);
    // setup-tools hands the tool to the top level then (its tools/ cannot take it).
    await E(fae).write('calculator', (await E(host.host).identify('math-tool')) as string);
    // The old tools/, which the agent's worker was handed, went unnamed: the daemon collected it
    // and ended that worker (docs/daemon-api.md); the agent is made again when next provided.
    await run.restartAgent([
      request => say(offersMath(request.toolNames)),
      request => say(offersMath(request.toolNames)),
    ]);
    await run.send('two');
    await run.reply(/^math offered: /);
    await run.send('three');
    await run.reply('math offered: true');
    expect(await E(fae).list('tools')).toContain('calculator');
    expect(await E(fae).has('calculator')).toBe(false);
    expect(run.logs.join('\n')).not.toMatch(/the tools known before stay offered/);
  });
});
