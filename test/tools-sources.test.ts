/**
 * A tool source in Fae's tools/ (src/agent-tools/tool-sources.ts; the MCP bridge
 * is one, docs/mcp.md): every tool it lists is offered, asked again before
 * each turn; a tool it drops is no longer offered, a tool whose schema is
 * refused is left out with the reason, and a source that cannot answer keeps
 * offering what it offered before.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { callTool, say, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { guest, turnEnds } from './support/agent-observers.js';
import { mailAs, providePeer, toolResults } from './support/among-others.js';
import { DAEMON_PROFILES } from '../sim/mail-host/profile.js';
import { useAgents } from './support/use-agents.js';
import { sourceControl } from './support/tool-source-caplet.js';

const sourceUrl = new URL('./support/tool-source-caplet.ts', import.meta.url).href;
const { start } = useAgents();

afterEach(() => {
  sourceControl.names = ['alpha', 'beta'];
  sourceControl.failing = false;
  sourceControl.failure = 'the source is down';
  sourceControl.calls = 0;
});

const ours = (names: string[]) => names.filter(name => ['alpha', 'beta', 'gamma'].includes(name));

/** Fae with the test source in its tools/ as `src`, answering with `steps`. */
const startWithSource = async (steps: Step[]) => {
  const host = makeMailHost();
  await E(host.host).makeUnconfined('worker-source', sourceUrl, { resultName: 'src', env: {} });
  return start({ host, persona: 'fae', introducedNames: { src: 'src' }, steps });
};

describe('a tool source in tools/', () => {
  test('its tools follow its list, a refused one is left out, and a failing source keeps what it offered', async () => {
    sourceControl.names = ['alpha', 'beta', 'bad name'];
    const offered: string[][] = [];
    const run = await startWithSource([
      request => {
        offered.push(ours(request.toolNames));
        return callTool('beta', {});
      },
      request => say(`1: ${request.messages.at(-1)!.content}`),
      request => {
        offered.push(ours(request.toolNames));
        return say('2');
      },
      request => {
        offered.push(ours(request.toolNames));
        return say('3');
      },
    ]);
    await run.send('one');
    await run.reply(/^1: .*beta ran/);
    expect(run.logs.join('\n')).toMatch(/a tool of tools\/src is refused: .*"bad name"/);
    expect(await run.help()).toMatch(/tools\/src \(one of its tools\): .*"bad name"/);

    // Changed once the agent has asked at the start and after the turn: the next turn's tools
    // must come from asking again before it.
    await sourceControl.untilCalls(2);
    sourceControl.names = ['alpha', 'gamma'];
    await run.send('two');
    await run.reply('2');
    expect(offered).toEqual([
      ['alpha', 'beta'],
      ['alpha', 'gamma'],
    ]);

    await sourceControl.untilCalls(4);
    sourceControl.failing = true;
    await run.send('three');
    await run.reply('3');
    expect(offered[2]).toEqual(['alpha', 'gamma']);
    expect(run.logs.join('\n')).toContain(
      "tools/src: tools/src's listTools() failed: the source is down; the tools it offered before stay offered",
    );
    expect(await run.help()).not.toContain('bad name');
  });

  // The second failure reads like the daemon's own "no such method": what a source is is read
  // from the methods it has, never from the words of its failure (an MCP server's, untrusted).
  test.each(['the source is down', 'target has no method "listTools", has []'])(
    'a source that cannot answer when it is first found (%j) is asked again at the next turn',
    async failure => {
      // An MCP server still starting (slow under load, after a restart) must not lose its tools
      // for the whole run: only a tools/ entry that answered a bad schema waits for a change.
      sourceControl.failing = true;
      sourceControl.failure = failure;
      const offered: string[][] = [];
      const run = await startWithSource([
        request => {
          offered.push(ours(request.toolNames));
          return say('1');
        },
        request => {
          offered.push(ours(request.toolNames));
          return say('2');
        },
      ]);
      await run.send('one');
      await run.reply('1');
      expect(run.logs.join('\n')).toContain(
        `tools/src: tools/src's listTools() failed: ${failure}; asked again at the next turn`,
      );
      sourceControl.failing = false;
      await run.send('two');
      await run.reply('2');
      expect(offered).toEqual([[], ['alpha', 'beta']]);
      expect(await run.help()).not.toMatch(/tools\/src.*refused/);
    },
  );

  test('an entry that is neither a tool nor a source is refused until it changes, and not asked again', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-source', sourceUrl, {
      resultName: 'odd',
      env: { KIND: 'neither' },
    });
    const run = await start({
      host,
      persona: 'fae',
      steps: [() => say('1'), () => say('2')],
      prepare: async (_host, name) => {
        await E(host.guest(name).powers).makeDirectory(['tools']);
        await E(host.host).copy(['odd'], [`profile-for-${name}`, 'tools', 'odd']);
      },
    });
    await run.send('one');
    await run.reply('1');
    await run.send('two');
    await run.reply('2');
    const logs = run.logs.join('\n');
    expect(
      logs.match(/tools\/odd refused: its schema\(\) failed: .*no method "schema"/g),
    ).toHaveLength(1);
    expect(logs).not.toContain('asked again');
    expect(await run.help()).toMatch(/tools\/odd.*no method "schema"/);
  });
});

describe.each(DAEMON_PROFILES)(
  "a peer's tool source that cannot answer yet (%s daemon)",
  profile => {
    // Asking a silent source again (above) is for the HOST's own tools/: a peer's source is adopted
    // only once it offers a tool, so one that stalls at adoption and speaks later offers nothing.
    test('is not adopted, and its tools are never offered when it starts answering', async () => {
      sourceControl.failing = true;
      const host = makeMailHost({ profile });
      await E(host.host).makeUnconfined('worker-peer-source', sourceUrl, {
        resultName: 'peer-src',
        env: {},
      });
      const run = await start({
        host,
        persona: 'fae',
        prepare: async (_host, name) => {
          await providePeer(host, name, 'mallory');
          await E(host.host).copy(['peer-src'], ['profile-for-mallory', 'peer-src']);
        },
      });
      let number = -1;
      run.provider.push(request => {
        number = latestMessageNumber(request);
        // It asks the HOST, so her message stays while the request waits.
        return callTool('mail', {
          op: 'request',
          recipient: run.host.special.host,
          description: 'mallory offers tools',
        });
      }, say(''));
      await mailAs(run, 'mallory', 'here are my tools', {
        edgeNames: ['tools'],
        petNames: ['peer-src'],
      });
      await expect.poll(() => turnEnds(run)).toBe(1);

      run.provider.push(
        () =>
          callTool('mail', {
            op: 'adoptTool',
            messageNumber: number,
            toolName: 'ptools',
            edgeName: 'tools',
          }),
        say('tried'),
      );
      await run.send(`adopt the tools of mallory's message #${number}`);
      await run.reply('tried');
      expect(toolResults(run.provider.requests.at(-1)).at(-1)).toMatch(
        /"error":"adoptTool: not adopted: it is not a usable FaeTool/,
      );
      expect(await guest(run).has('tools', 'ptools')).toBe(false);

      sourceControl.failing = false;
      const offered: string[][] = [];
      run.provider.push(request => {
        offered.push(ours(request.toolNames));
        return say('later');
      });
      await run.send('what can you do now?');
      await run.reply('later');
      expect(offered).toEqual([[]]);
    });
  },
);
