/**
 * Redact, then cut (docs/behaviour.md 9.5), through make() in the daemon
 * double on both daemon generations: a message full of a secret-shaped
 * token (the auth token's value), long enough that the notice (8,000
 * characters), the searchable history's record (3,000) and the digest's
 * quote (160) are each cut through one copy of it, leaves no piece of the
 * token in the agent's store, its searchable history or what recall
 * returns.
 */
import { HISTORY_DIRECTORY, MEMORY_PATH } from '../src/daemon/own-names.js';
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { DAEMON_PROFILES } from '../sim/mail-host/index.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { callTool, type RecordedRequest, type Step } from './support/scripted-provider.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

// 30 characters, every one a token character: the redactor hides it only where it is whole.
const TOKEN = 'sk-redact-then-cut-0123456789A';

/** A text whose copies of the token fall every 31 characters after `shift` characters. */
const flood = (shift: number) => `${'x'.repeat(shift)} ${`${TOKEN} `.repeat(300)}`;

/** Every piece of the token 8 characters long: none may be kept anywhere. */
const pieces = Array.from({ length: TOKEN.length - 7 }, (_, at) => TOKEN.slice(at, at + 8));

/** The model answers with `text`: a reply is quoted, and cut, in the digest and the record too. */
const answer =
  (text: string): Step =>
  (request: RecordedRequest) =>
    callTool('reply', { messageNumber: latestMessageNumber(request), strings: [text] });

const lastToolResult = (request: RecordedRequest): string => request.messages.at(-1)!.content;

describe.each(DAEMON_PROFILES)('redact, then cut, on the %s daemon', profile => {
  test('no piece of a token that straddles a cut is stored or recalled', async () => {
    const run = await start({
      profile,
      env: { LAL_AUTH_TOKEN: TOKEN, LAL_KEEP_TURNS: '1' },
      steps: [
        answer(flood(0)),
        answer(flood(15)),
        ...['one more', 'and another', 'and the last'].map(answer),
      ],
    });
    // Two shifts 15 apart: whatever the cut's place, one of them splits a copy 8 to 23 characters in.
    for (const shift of [0, 15]) {
      await run.send(flood(shift));
      await run.reply(/^x* \[redacted\]/);
    }
    // Enough further turns that the long ones fold into the digest (LAL_KEEP_TURNS=1).
    for (const text of ['one more', 'and another', 'and the last']) {
      await run.send(text);
      await run.reply(text);
    }
    run.provider.push(
      request =>
        callTool('mail', {
          op: 'recall',
          query: 'redacted',
          messageNumber: latestMessageNumber(request),
        }),
      request =>
        callTool('reply', {
          messageNumber: latestMessageNumber(request),
          strings: [`recalled: ${lastToolResult(request)}`],
        }),
    );
    await run.send('what did I send?');
    const recalled = (await run.reply(/^recalled: /)).strings!.join('');
    const powers = E(run.host.guest(run.name).powers);
    await expect
      .poll(async () => (await powers.lookup([...MEMORY_PATH])) as string)
      .toContain('digest');
    const memory = (await powers.lookup([...MEMORY_PATH])) as string;
    const chunks = await Promise.all(
      ((await powers.list(HISTORY_DIRECTORY)) as string[]).map(
        async name => (await powers.lookup([HISTORY_DIRECTORY, name])) as string,
      ),
    );
    // The copies that were whole are redacted whole.
    expect(memory).toContain('[redacted]');
    expect(recalled).toContain('[redacted]');
    for (const kept of [memory, recalled, ...chunks])
      for (const piece of pieces) expect(kept).not.toContain(piece);
  });
});
