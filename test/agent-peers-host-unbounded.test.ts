/**
 * The bounds on conversations between agents hold other senders, never the
 * HOST (docs/behaviour.md, "Other agents"): the HOST writing more often than
 * LAL_MAX_TURNS_PER_SENDER_PER_HOUR, or more times in a row than
 * LAL_MAX_PEER_EXCHANGES, is answered every time, and told of no hold.
 */
import { expect, test } from 'vitest';
import { callTool, type Step } from './support/scripted-provider.js';
import { latestMessageNumber, textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const answerEach = (count: number): Step[] =>
  Array.from(
    { length: count },
    (_, index): Step =>
      request =>
        callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: [`answer ${index + 1}`],
        }),
  );

test('the HOST is answered past the hourly bound and the bound on turns in a row', async () => {
  const run = await start({
    env: { LAL_MAX_TURNS_PER_SENDER_PER_HOUR: '2', LAL_MAX_PEER_EXCHANGES: '2' },
    steps: answerEach(4),
  });
  for (let n = 1; n <= 4; n += 1) {
    await run.send(`message ${n}`);
    expect(textOf(await run.reply(`answer ${n}`))).toBe(`answer ${n}`);
  }
  expect(await run.help()).not.toMatch(/HELD/);
});
