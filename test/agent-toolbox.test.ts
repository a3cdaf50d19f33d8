/**
 * A toolbox of hundreds through make() (docs/how-it-works.md, "The
 * toolbox"): with 121 tools from two sources in Fae's tools/, requests offer
 * the built-ins and `toolbox` instead of 121 schemas; the model finds a tool
 * by what it does and calls it in the same turn, validated against its own
 * schema and judged by the policy under its own name; a tool the policy
 * denies is never found; a deferred tool called by its name runs; one used
 * is offered directly from the next turn; the HOST's always-offered tools
 * are offered; and a small toolbox is offered whole, as before.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { makeToolboxHost, TOOLBOX_SOURCE_URL } from '../sim/toolbox-host.js';
import { callTool, say, type RecordedRequest } from './support/scripted-provider.js';
import { latestMessageNumber, textOf, waitForMessage } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { nextCall } from './support/agent-observers.js';

const { start } = useAgents();

/** A Fae whose tools/ holds 121 tools: two sources (work: 0–60, more: 61–120). */
const startWithToolbox = async (env: Record<string, string> = {}) => {
  const host = await makeToolboxHost();
  return start({ host, persona: 'fae', env, introducedNames: { work: 'work', more: 'more' } });
};

const lastResult = (request: RecordedRequest) => request.messages.at(-1)!.content;
const errorOf = (request: RecordedRequest) =>
  (JSON.parse(lastResult(request)) as { error: string }).error;
const toolsBytes = (request: RecordedRequest) => JSON.stringify(request.tools).length;

describe('the toolbox', () => {
  test('121 tools: found by what they do and called in the same turn; requests stay small', async () => {
    const run = await startWithToolbox();
    run.provider.push(
      () => callTool('toolbox', { find: 'create a meeting in the calendar' }),
      request => {
        const found = JSON.parse(lastResult(request)) as { found: { name: string }[]; of: number };
        expect(found.of).toBe(121);
        expect(found.found[0]!.name).toBe('calendar_create_item');
        return callTool('toolbox', {
          use: 'calendar_create_item',
          arguments: { title: 'standup' },
        });
      },
      request => say(`done: ${lastResult(request)}`),
    );
    await run.send('put a standup meeting in my calendar');
    await run.reply(/^done: .*calendar_create_item ran with \{\\?"title\\?":\\?"standup\\?"\}/);
    const [first, second, third] = run.provider.requests;
    // The built-ins and one more tool, not 121.
    expect(first!.toolNames).toContain('toolbox');
    expect(first!.toolNames.filter(name => name.includes('_item'))).toEqual([]);
    const toolbox = first!.tools.find(tool => tool.function.name === 'toolbox')!;
    expect(toolbox.function.description).toMatch(/the 121 tools not offered here/);
    expect(toolbox.function.description).toMatch(
      /Sources: work \(61: repo_create_item, .*\); more \(60: /,
    );
    // The request's beginning (its tools) does not change while the tool is found and used.
    expect(second!.tools).toEqual(first!.tools);
    expect(third!.tools).toEqual(first!.tools);
    expect(toolsBytes(first!)).toBeLessThan(9_000);
  });

  test('a found tool is validated against its own schema; a deferred tool called by name runs; one used is offered directly once the beginning is rewritten anyway', async () => {
    // One finished turn kept: the HOST's fourth turn folds the first three (behaviour 3.7).
    const run = await startWithToolbox({ LAL_KEEP_TURNS: '1' });
    run.provider.push(
      () => callTool('toolbox', { use: 'tickets_create_item', arguments: {} }),
      request => {
        expect(lastResult(request)).toMatch(/tickets_create_item: title is required/);
        return callTool('mail_list_item', { title: 'inbox' });
      },
      request => say(`listed: ${lastResult(request)}`),
    );
    await run.send('file a ticket, then list my mail');
    await run.reply(/^listed: .*mail_list_item ran/);
    const offered: string[][] = [];
    const toolboxSays: string[] = [];
    for (let turn = 2; turn <= 4; turn += 1) {
      run.provider.push(request => {
        offered.push(request.toolNames.filter(name => name.includes('_item')));
        toolboxSays.push(
          request.tools.find(tool => tool.function.name === 'toolbox')!.function.description,
        );
        return say(`ok ${turn}`);
      });
      await run.send(`again ${turn}`);
      await run.reply(`ok ${turn}`);
    }
    // Turns 2 and 3 extend the first's requests: the same tools, so a prompt cache keeps them.
    // The fourth folds anyway: both tools it reached for, in the toolbox's order, the rest behind it.
    expect(offered).toEqual([[], [], ['tickets_create_item', 'mail_list_item']]);
    expect(toolboxSays[1]).toMatch(/the 121 tools not offered here/);
    expect(toolboxSays[2]).toMatch(/the 119 tools not offered here/);
    expect(await run.help()).toMatch(
      /Tools:\n- built in: .+\n- 2 offered directly, 119 deferred behind toolbox \(LAL_TOOL_BUDGET_TOKENS 1500\)/,
    );
  });

  test('help() names the deferred tools from start, before any turn', async () => {
    const run = await startWithToolbox();
    expect(run.provider.requests).toHaveLength(0);
    await expect
      .poll(() => run.help())
      .toMatch(
        /Tools:\n- built in: .+\n- \d+ offered directly, \d+ deferred behind toolbox \(LAL_TOOL_BUDGET_TOKENS 1500\)/,
      );
    const [, direct, deferred] = /(\d+) offered directly, (\d+) deferred/.exec(await run.help())!;
    expect(Number(direct) + Number(deferred)).toBe(121);
    expect(run.provider.requests).toHaveLength(0);
  });

  test("tools used lately are offered again in the same thread only: a peer's turn is not offered the HOST's, nor the HOST's a peer's", async () => {
    // One finished turn kept: each thread's fourth turn folds, and offers what that thread used.
    const run = await startWithToolbox({ LAL_KEEP_TURNS: '1' });
    await E(run.host.host).provideGuest('bob', { introducedNames: { fae: 'fae' } });
    const bob = run.host.guest('bob').powers;
    const used = (request: RecordedRequest) =>
      request.toolNames.filter(name => name.includes('_item'));
    run.provider.push(
      () => callTool('mail_list_item', { title: 'inbox' }),
      () => say('listed'),
    );
    await run.send('list my mail');
    await run.reply('listed');
    const seenByBob: string[][] = [];
    for (let turn = 1; turn <= 4; turn += 1) {
      run.provider.push(
        request => {
          seenByBob.push(used(request));
          return turn === 1
            ? callTool('toolbox', { use: 'tickets_create_item', arguments: { title: 'bug' } })
            : callTool('reply', {
                messageNumber: latestMessageNumber(request),
                strings: [`bob ${turn}`],
              });
        },
        ...(turn === 1
          ? [
              (request: RecordedRequest) =>
                callTool('reply', {
                  messageNumber: latestMessageNumber(request),
                  strings: ['bob 1'],
                }),
            ]
          : []),
        () => say(''),
      );
      await E(bob).send('fae', [`ticket ${turn}`], [], []);
      await waitForMessage(run.host, message => textOf(message) === `bob ${turn}`, { who: 'bob' });
    }
    // bob's turns: nothing of the HOST's; from his fourth (a fold), what he used himself.
    expect(seenByBob).toEqual([[], [], [], ['tickets_create_item']]);
    const seenByHost: string[][] = [];
    for (let turn = 2; turn <= 4; turn += 1) {
      run.provider.push(request => {
        seenByHost.push(used(request));
        return say(`host ${turn}`);
      });
      await run.send(`and now ${turn}?`);
      await run.reply(`host ${turn}`);
    }
    expect(seenByHost).toEqual([[], [], ['mail_list_item']]);
  });

  test('a source stored into tools/ mid-life is searched from the next turn', async () => {
    const run = await startWithToolbox();
    // The 122nd tool of the set: calendar_create_item_3, "Create a invitation in the calendar."
    await E(run.host.host).makeUnconfined('worker-extra', TOOLBOX_SOURCE_URL, {
      resultName: 'extra',
      env: { TOOLBOX_FROM: '121', TOOLBOX_TO: '122' },
    });
    const foundFirst: string[] = [];
    const ask = (then: string) =>
      run.provider.push(
        () => callTool('toolbox', { find: 'an invitation in the calendar' }),
        request => {
          const found = JSON.parse(lastResult(request)) as { found: { name: string }[] };
          foundFirst.push(found.found[0]!.name);
          return say(then);
        },
      );
    ask('before');
    const saved = nextCall(run.host, 'fae', 'storeValue', 'reply');
    await run.send('invite them');
    await run.reply('before');
    await saved;
    // What setup-tools does for a running agent: the source goes into its tools/.
    const id = (await E(run.host.host).identify('extra'))!;
    await E(run.host.guest('fae').powers).write(['tools', 'extra'], id);
    ask('after');
    await run.send('again');
    await run.reply('after');
    expect(foundFirst[0]).not.toBe('calendar_create_item_3');
    expect(foundFirst[1]).toBe('calendar_create_item_3');
  });

  test('a denied tool is never found and cannot be used; an unknown one is named as such', async () => {
    const run = await startWithToolbox({ LAL_TOOLS_DENY: 'calendar_create_item' });
    run.provider.push(
      () => callTool('toolbox', { find: 'create a meeting in the calendar' }),
      request => {
        expect(lastResult(request)).toContain('calendar_');
        // Its namesakes of other rounds (calendar_create_item_1) may be found; never the denied one.
        expect(lastResult(request)).not.toContain('"calendar_create_item"');
        return callTool('toolbox', { use: 'calendar_create_item', arguments: { title: 'x' } });
      },
      request => {
        expect(errorOf(request)).toMatch(/^No tool "calendar_create_item" in the toolbox/);
        return callTool('toolbox', { use: 'calendr_create_item', arguments: { title: 'x' } });
      },
      request => say(`said: ${lastResult(request)}`),
    );
    await run.send('schedule a meeting');
    await run.reply(
      /^said: .*No tool \\"calendr_create_item\\" in the toolbox; the nearest: .*Find one first/,
    );
  });

  test('the approval policy judges a found tool by its own name', async () => {
    const run = await startWithToolbox({
      LAL_TOOLS_APPROVE: 'files_delete_item',
      LAL_TRUSTED_SENDERS: ',',
    });
    run.provider.push(
      () => callTool('toolbox', { use: 'files_delete_item', arguments: { title: 'old.txt' } }),
      request => say(`status: ${lastResult(request)}`),
    );
    await run.send('delete old.txt from the drive');
    await run.reply(/^status: .*pending/);
    const asked = (await E(run.host.host).listMessages()).filter(
      message => message.type === 'request',
    );
    expect(asked.map(message => (message as { description: string }).description)).toEqual([
      expect.stringMatching(/asks to call files_delete_item \{"title":"old\.txt"\}/),
    ]);
  });

  test('always-offered tools are offered; a small toolbox is offered whole, with no toolbox tool', async () => {
    const run = await startWithToolbox({ LAL_TOOLS_ALWAYS: 'repo_list_item' });
    run.provider.push(request => {
      expect(request.toolNames).toContain('repo_list_item');
      return say('ok');
    });
    await run.send('hi');
    await run.reply('ok');

    const small = makeMailHost();
    await E(small.host).makeUnconfined('worker-work', TOOLBOX_SOURCE_URL, {
      resultName: 'work',
      env: { TOOLBOX_FROM: '0', TOOLBOX_TO: '3' },
    });
    const few = await start({ host: small, persona: 'fae', introducedNames: { work: 'work' } });
    few.provider.push(request => {
      expect(request.toolNames.filter(name => name.includes('_item'))).toEqual([
        'repo_create_item',
        'calendar_create_item',
        'mail_create_item',
      ]);
      expect(request.toolNames).not.toContain('toolbox');
      return say('ok');
    });
    await few.send('hi');
    await few.reply('ok');
  });
});
