/**
 * Redaction by value (behaviour 1.4): the secret values themselves are
 * hidden wherever they appear in text, numbers that merely sit in a
 * variable named like a secret are left alone, and a log that fails to
 * write never ends a turn.
 */
import { describe, expect, test } from 'vitest';
import { makeRedactor, secretValues } from '../src/log/log.js';
import { say } from './support/scripted-provider.js';
import { textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

describe('redaction by value (behaviour 1.4)', () => {
  test('LAL_MAX_TOKENS=2048 leaves the number 2048 alone in events and logs, and the turn answers', async () => {
    const run = await start({
      env: { LAL_MAX_TOKENS: '2048', LAL_CONTEXT_TOKENS: '2986' },
      steps: [say('pong')],
    });
    run.provider.usage = { inputTokens: 2048, outputTokens: 2986 };
    await run.send('ping');
    await run.reply('pong');
    const reply = run.events.find(event => event.kind === 'model-reply');
    expect(reply).toMatchObject({ usage: { inputTokens: 2048, outputTokens: 2986 } });
    expect(run.logs.join('\n')).toContain('2048 in / 2986 out');
    expect(run.logs.join('\n')).not.toContain('[redacted]');
  });

  test('a token with characters JSON escapes is still hidden in events, logs and mail', async () => {
    const token = 'sk-"quoted\\secret-99';
    const run = await start({
      env: { LAL_AUTH_TOKEN: token },
      steps: [request => say(`you said ${request.messages.at(-1)!.content}`)],
    });
    await run.send(`my token is ${token} ok`);
    const answer = await run.reply(/^you said/);
    expect(textOf(answer)).not.toContain(token);
    expect(textOf(answer)).toContain('[redacted]');
    const turnStart = run.events.find(event => event.kind === 'turn-start');
    expect(turnStart).toBeDefined();
    const title = turnStart?.kind === 'turn-start' ? turnStart.title : '';
    // The title quotes the message: neither the token nor its quoted form may show.
    expect(title).toContain('[redacted]');
    expect(title).not.toContain(JSON.stringify(token).slice(1, -1));
    expect(run.logs.join('\n')).not.toContain(token);
  });

  test('a log that throws never ends a turn', async () => {
    const run = await start({ steps: [say('pong'), say('pong again')] });
    Object.defineProperty(run.logs, 'push', {
      value: () => {
        throw Error('disk full');
      },
    });
    await run.send('ping');
    await run.reply('pong');
    await run.send('ping again');
    await run.reply('pong again');
  });

  test('secret values: names that mark a secret, not plain numbers; longest hidden whole', () => {
    const env = {
      LAL_AUTH_TOKEN: 'abcd-efgh-ijkl',
      LAL_MAX_TOKENS: '2048',
      MY_API_KEY: 'abcd',
      LAL_MODEL: 'not-secret',
      SOME_SECRET: ' 12.5 ',
    };
    expect(secretValues(env).sort()).toEqual(['abcd', 'abcd-efgh-ijkl']);
    const redact = makeRedactor(env);
    expect(redact('token abcd-efgh-ijkl and key abcd, 2048 tokens, model not-secret')).toBe(
      'token [redacted] and key [redacted], 2048 tokens, model not-secret',
    );
    expect(redact('Authorization: Bearer zzzzzzzzzzzz')).toBe('Authorization: Bearer [redacted]');
  });
});
