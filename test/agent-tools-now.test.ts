/**
 * The controller's tools() says what a turn can reach now (docs/behaviour.md
 * 10.2): a tool the HOST puts in tools/ or takes out between turns is named,
 * or no longer named, at once, not only after the next turn read tools/.
 * Through make(), with E() to the daemon double, on both daemons.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { placeInTools } from '../sim/chat/attach-tool.js';
import { say } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

const { start } = useAgents();

describe.each(['f0a46042a', 'newest'] as const)('tools() between turns (%s daemon)', profile => {
  test('names a tool put in tools/ at once, and no longer one taken out', async () => {
    const host = makeMailHost(profile === 'newest' ? { profile } : {});
    const run = await start({ host, profile, persona: 'fae', steps: [say('hi')] });
    await run.send('hello');
    await run.reply('hi');
    expect(await run.tools()).not.toMatch(/\bmath\b/);

    await E(host.host).makeUnconfined('worker-math', mathUrl, {
      resultName: 'calculator',
      env: {},
    });
    const guest = host.guest('fae').powers;
    await placeInTools(host.host, guest, 'calculator');
    expect(await run.tools()).toMatch(/^tools\/calculator, the [@A-Za-z]+'s: math$/m);

    await E(guest).remove('tools', 'calculator');
    expect(await run.tools()).not.toMatch(/\bmath\b/);
  });
});
