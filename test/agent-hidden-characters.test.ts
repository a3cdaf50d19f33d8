/**
 * Approval and code texts a person can trust (issue 30): bidi controls,
 * zero-width characters, line and paragraph separators and terminal escapes
 * are shown escaped in every approval, code and request message, on both
 * daemons, and the sender being served comes first. Through make() under
 * lockdown against the daemon double (src/encoding/show-hidden.ts).
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { holdsHidden, showHidden } from '../src/encoding/show-hidden.js';
import { callTool, say } from './support/scripted-provider.js';
import { textOf, waitForMessage, type Message } from './support/agent-harness.js';
import { hostRequests, startWith } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';

const { start } = useAgents();

// Right-to-left override, zero-width space, line separator, pop directional isolate, ESC, a tag character.
const HOSTILE = 'invoice\u202Etxt.exe\u200B\u2028\u2069 \u001b[2Jgone \u{E0041}';

describe('showHidden', () => {
  test('escapes what hides or reorders text, keeps newlines, tabs and ordinary letters', () => {
    expect(showHidden(HOSTILE)).toBe(
      'invoice\\u{202E}txt.exe\\u{200B}\\u{2028}\\u{2069} \\u{1B}[2Jgone \\u{E0041}',
    );
    for (const hidden of [
      '\u202A',
      '\u202D',
      '\u2066',
      '\u2068',
      '\u200D',
      '\u2029',
      '\uFEFF',
      '\r',
      '\u007F',
      '\u009B',
    ])
      expect(showHidden(`a${hidden}b`)).not.toContain(hidden);
    const plain = 'line one\n\tindented — café 漢字 🙂';
    expect(showHidden(plain)).toBe(plain);
    expect(holdsHidden(plain)).toBe(false);
    expect(holdsHidden(HOSTILE)).toBe(true);
  });
});

describe('the approval request', () => {
  for (const profile of ['f0a46042a', 'newest'] as const) {
    test(`on ${profile}: names whom it serves first and shows the call's hidden characters escaped`, async () => {
      const { run } = await startWith(
        start,
        callTool('store', { value: `${'x'.repeat(300)}${HOSTILE}`, petName: ['kept'] }),
        { profile, env: { LAL_TOOLS_APPROVE: 'store', LAL_TRUSTED_SENDERS: 'nobody' } },
      );
      await expect.poll(() => hostRequests(run)).toHaveLength(1);
      const [asked] = await hostRequests(run);
      const description = asked!.description as string;
      expect(description).toMatch(
        /^While serving message #\d+ from (HOST|@host), Lal asks to call /,
      );
      expect(holdsHidden(description)).toBe(false);
      expect(description).toContain('invoice\\u{202E}txt.exe\\u{200B}\\u{2028}\\u{2069}');
      expect(description).toContain('endo store --text yes --name yes');
    });
  }
});

describe("the model's request to someone", () => {
  for (const profile of ['f0a46042a', 'newest'] as const) {
    test(`on ${profile}: is shown with its hidden characters escaped`, async () => {
      const { run } = await startWith(
        start,
        callTool('request', {
          recipient: profile === 'newest' ? '@host' : 'HOST',
          description: HOSTILE,
        }),
        { profile },
      );
      await expect.poll(() => hostRequests(run)).toHaveLength(1);
      const [asked] = await hostRequests(run);
      expect(holdsHidden(asked!.description as string)).toBe(false);
      expect(asked!.description).toContain(showHidden(HOSTILE));
    });
  }
});

describe('code put to the HOST (newest daemon)', () => {
  test('the code message keeps its lines, shows hidden characters escaped and says so; the request says whom it serves first', async () => {
    const source = `const note = "${HOSTILE}";\nnote.length`;
    const run = await start({
      profile: 'newest',
      steps: [
        () =>
          callTool('evaluate', { source, codeNames: [], petNamePaths: [], resultName: 'answer' }),
        say(''),
      ],
    });
    await run.send('work it out');
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    const inbox = (await E(run.host.host).listMessages()) as unknown as Message[];
    const code = textOf(
      inbox.filter(message => message.type === 'package' && message.number < asked.number).at(-1)!,
    );
    // One sentence: the agent's name goes on in lower case after the comma (issue 35, seen in a real daemon).
    expect(code).toMatch(/^While serving message #\d+ from @host, the lal agent asks to run /);
    expect(holdsHidden(code)).toBe(false);
    expect(code).toContain(`const note = "${showHidden(HOSTILE)}";\nnote.length`);
    expect(code).toMatch(/shown as \\u\{…\}/);
    const request = (asked as unknown as { description: string }).description;
    expect(request).toMatch(/^While serving message #\d+ from @host, the lal agent asks to run /);
    expect(request).toContain('endo store --text yes --name yes');
  });
});
