/**
 * help() (the simulator's /status) names the tools the model is offered:
 * the built-ins a turn gets, after LAL_TOOLS_ALLOW / LAL_TOOLS_DENY, and
 * then tools/'s (docs/behaviour.md 10.2). Through make(), under lockdown, on
 * both daemon generations of the double.
 */
import { describe, expect, test } from 'vitest';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import { replyStep } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

/** The names on help()'s "built in" line. */
const builtIns = (help: string): string[] => {
  const line = /^Tools:\n- built in: (.*)$/m.exec(help)?.[1];
  expect(line).toBeDefined();
  return line!.split(', ');
};

describe.each(DAEMON_PROFILES)("help()'s tools on the %s daemon", profile => {
  test('the built-ins the model is offered, as the request offers them', async () => {
    const run = await start({ profile, steps: [replyStep('pong')] });
    await run.send('ping');
    await run.reply('pong');
    const offered = run.provider.requests[0]!.tools.map(tool => tool.function.name);
    expect(builtIns(await run.help())).toEqual(offered);
  });

  test('a denied tool is not named, and none left says why', async () => {
    const denied = await start({ profile, env: { LAL_TOOLS_DENY: 'mail' } });
    expect(builtIns(await denied.help())).not.toContain('mail');
    expect(builtIns(await denied.help()).length).toBeGreaterThan(0);
    const none = await start({ profile, env: { LAL_TOOLS_ALLOW: ',' } });
    expect(await none.help()).toMatch(
      /^Tools:\n- built in: none \(LAL_TOOLS_ALLOW, LAL_TOOLS_DENY\)$/m,
    );
  });
});
