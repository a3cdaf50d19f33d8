/**
 * A tool of this package named in a policy list (docs/troubleshooting.md:
 * the warning is for a name "that is no built-in, no tool of this package
 * and no tool the agent has yet"): the agent knows it at start, and once it
 * is in tools/, LAL_TOOLS_DENY keeps it from the model, from a call, and
 * from what help() and tools() say is offered — one policy for every path
 * (src/policy/tool-policy.ts). Through make(), with E() to the daemon double.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

const { start } = useAgents();

/** help()'s section under `title`, up to the next section. */
const section = (help: string, title: string): string => {
  const from = help.indexOf(`${title}:`);
  if (from < 0) return '';
  const rest = help.slice(from + title.length + 1);
  const next = rest.search(/\n[A-Z][^\n]*:\n/);
  return next < 0 ? rest : rest.slice(0, next);
};

describe.each(['f0a46042a', 'newest'] as const)(
  'a package tool in a policy list (%s daemon)',
  profile => {
    test('LAL_TOOLS_DENY=math: known at start; in tools/ it is neither offered, nor callable, nor said to be offered', async () => {
      const host = makeMailHost(profile === 'newest' ? { profile } : {});
      await E(host.host).makeUnconfined('worker-math', mathUrl, {
        resultName: 'math-tool',
        env: {},
      });
      let offered: string[] | undefined;
      const run = await start({
        host,
        profile,
        persona: 'fae',
        env: { LAL_TOOLS_DENY: 'math', LAL_TOOLS_CONFIRM: 'readFil, timestamp' },
        introducedNames: { 'math-tool': 'calculator' },
        steps: [
          request => {
            offered = request.toolNames;
            return callTool('math', { operation: 'multiply', a: 6, b: 7 });
          },
          request =>
            callTool('reply', {
              messageNumber: latestMessageNumber(request),
              strings: [request.messages.at(-1)!.content],
            }),
        ],
      });
      expect(await E(host.guest('fae').powers).has('tools', 'calculator')).toBe(true);
      await run.send('what is 6 times 7?');
      const answer = await run.reply(/math/);
      expect(offered).toBeDefined();
      expect(offered).not.toContain('math');
      expect(answer.strings?.join('')).toMatch(/not allowed here \(LAL_TOOLS_DENY\)/);
      expect(answer.strings?.join('')).not.toContain('42');

      const help = await run.help();
      expect(section(help, 'Tools offered')).not.toMatch(/\bmath\b/);
      expect(help).toContain('never these tools: math');
      // Only the misspelling is said: math and timestamp are this package's tools.
      const said = run.logs.filter(line => line.startsWith('configuration: LAL_TOOLS'));
      expect(said).toEqual([
        'configuration: LAL_TOOLS_CONFIRM names readFil, no tool known at start; did you mean readFile?',
      ]);
      expect(help).not.toMatch(/names (math|timestamp), no tool known/);
      expect(await run.tools()).not.toMatch(/\bmath\b/);
    });
  },
);
