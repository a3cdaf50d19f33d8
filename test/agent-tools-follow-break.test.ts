/**
 * tools/ is followed for its name changes (serving/tools-freshness.ts); when
 * that stream breaks (the connection to the directory's follower is lost) or ends,
 * the agent says so in the log and reads tools/ before each turn instead: a
 * tool stored into tools/ after the break is offered on the very next turn
 * (docs/behaviour.md, behaviour 6), as it was while the stream stood.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeBreakableToolsFollower } from './support/breakable-tools-follower.js';
import { say } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';
import { nextCall } from './support/agent-observers.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

const { start } = useAgents();

const offersMath = (toolNames: string[]) => `math offered: ${toolNames.includes('math')}`;

/**
 * Fae with its tools/ followed through a follower the test can break, a math
 * tool made but not in tools/, and one turn served (its memory saved).
 */
const startFaeAfterOneTurn = async () => {
  const host = makeMailHost();
  await E(host.host).makeUnconfined('worker-math', mathUrl, { resultName: 'math-tool', env: {} });
  const follower = makeBreakableToolsFollower();
  const run = await start({
    host,
    persona: 'fae',
    wrapPowers: follower.wrap,
    steps: [
      request => say(offersMath(request.toolNames)),
      request => say(offersMath(request.toolNames)),
      request => say(offersMath(request.toolNames)),
    ],
  });
  await expect.poll(() => follower.opened()).toBe(1);
  const saved = nextCall(host, 'fae', 'storeValue', 'reply');
  await run.send('one');
  await run.reply('math offered: false');
  await saved;
  return { host, follower, run };
};

describe.each([
  ['broke', 'breakFollowing', 'Disconnected: the connection closed'],
  ['ended', 'endFollowing', 'the daemon ended it'],
] as const)('tools/ whose name-change stream %s', (_what, how, said) => {
  test('a tool stored into tools/ after that is offered on the next turn', async () => {
    const { host, follower, run } = await startFaeAfterOneTurn();
    follower[how]();
    await expect
      .poll(() => run.logs.join('\n'))
      .toContain(`stopped following tools/ (${said}); it is read before each turn`);
    const id = await E(host.host).identify('math-tool');
    await E(host.guest('fae').powers).write(['tools', 'calculator'], id as string);
    await run.send('two');
    await run.reply('math offered: true');
    // And a tool removed is no longer offered at the turn after.
    await E(host.guest('fae').powers).remove('tools', 'calculator');
    await run.send('three');
    await run.reply('math offered: false');
  });
});

test('a check of tools/ that throws is logged, and the turn still runs', async () => {
  const { host, follower, run } = await startFaeAfterOneTurn();
  // tools/ changes, and the daemon's next listing of it is not a list.
  follower.answerOddListOnce();
  const id = await E(host.host).identify('math-tool');
  await E(host.guest('fae').powers).write(['tools', 'calculator'], id as string);
  await run.send('two');
  await run.reply('math offered: false');
  expect(run.logs.join('\n')).toMatch(/could not check tools\/: /);
  // Read again after that turn: the tool is offered at the next.
  await run.send('three');
  await run.reply('math offered: true');
});
