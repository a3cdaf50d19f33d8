/**
 * An unknown LAL_PROVIDER (`gemini`) in the agent as the daemon runs it, through make()
 * (issue 45, docs/architecture.md "Bad settings never throw out of make"): the HOST is told in
 * one line which values it takes, in the greeting and in each answer; the log says it too, and
 * help() under Model, so a revived agent that does not greet again still says why it cannot
 * think; the worker goes on. The rule is one (providers/config.ts): npm start refuses the same
 * value at start with the same words (sim/chat/preflight.ts). The log said nothing of it.
 */
import { describe, expect, test } from 'vitest';
import { checkModelServer } from '../sim/chat/preflight.js';
import { textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

const RULE = 'LAL_PROVIDER must be one of anthropic, openai, ollama; got "gemini"';
/** The HOST's mail marks a setting's name as code (src/mail/code-spans.ts). */
const RULE_AS_MAILED = RULE.replace('LAL_PROVIDER', '`LAL_PROVIDER`');

describe('LAL_PROVIDER=gemini', () => {
  test('is told to the HOST and the log in one line naming the values it takes; the agent goes on', async () => {
    const run = await start({
      realProvider: true,
      // Nothing listens there: only the setting is wrong, and no request is made.
      env: { LAL_PROVIDER: 'gemini', LAL_HOST: 'http://127.0.0.1:9/v1' },
    });
    const greeting = textOf(run.greeting!);
    expect(greeting).toBe(`Lal agent ready. I cannot think yet: ${RULE_AS_MAILED}`);
    expect(run.logs.filter(line => line.includes(RULE))).toEqual([`cannot think: ${RULE}`]);
    expect(await run.help()).toContain(`Model:\n- cannot think: ${RULE}`);
    for (const text of ['ping', 'are you there?']) {
      await run.send(text);
      expect(textOf(await run.reply(/^I cannot think: /))).toBe(
        `I cannot think: ${RULE_AS_MAILED}`,
      );
    }
    expect(run.incarnations).toBe(1);
  });

  test('npm start refuses it at start with the same words', async () => {
    const refused = await checkModelServer({ LAL_PROVIDER: 'gemini' });
    expect(refused).toEqual({ ok: false, line: `${RULE}; see docs/configuration.md.` });
  });
});
