/**
 * Tool policy under lockdown through make(): LAL_TOOLS_ALLOW / LAL_TOOLS_DENY
 * decide what the model is offered; LAL_TOOLS_APPROVE puts each call to the
 * HOST as a request (pending until it is resolved or rejected) unless the
 * message comes from a trusted sender (LAL_TRUSTED_SENDERS).
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { callTool, say } from './support/scripted-provider.js';
import {
  latestMessageNumber,
  textOf,
  waitForMessage,
  type AgentRun,
  type Message,
} from './support/agent-harness.js';
import { turnEnds } from './support/agent-observers.js';
import { useAgents } from './support/use-agents.js';
import { makeToolboxHost } from '../sim/toolbox-host.js';

const { start } = useAgents();

const guestHas = (run: AgentRun, name: string) => E(run.host.guest(run.name).powers).has(name);

describe('allow and deny lists', () => {
  test('a denied tool is not in the request, and a call to it anyway is refused without running', async () => {
    const run = await start({
      env: { LAL_TOOLS_DENY: 'remove, makeDirectory' },
      steps: [
        callTool('makeDirectory', { petNamePath: ['box'] }),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
      ],
    });
    await run.send('make a box');
    await run.reply('done');
    const offered = run.provider.requests[0]!.toolNames;
    expect(offered).not.toContain('remove');
    expect(offered).not.toContain('makeDirectory');
    expect(offered).toContain('reply');
    expect(run.provider.requests[1]!.messages.at(-1)!.content).toMatch(
      /not allowed here \(LAL_TOOLS_DENY\)/,
    );
    expect(await guestHas(run, 'box')).toBe(false);
    expect(await run.help()).toMatch(/never these tools: remove, makeDirectory/);
  });

  test('a call to an unknown tool is told the tools it was offered, never a denied one', async () => {
    const run = await start({
      env: { LAL_TOOLS_DENY: 'remove, makeDirectory' },
      steps: [
        callTool('frobnicate', {}),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
      ],
    });
    await run.send('frobnicate it');
    await run.reply('done');
    const error = JSON.parse(run.provider.requests[1]!.messages.at(-1)!.content) as {
      error: string;
    };
    expect(error.error).toMatch(/^Unknown tool "frobnicate"\. The tools you have are: /);
    const listed = error.error.split(': ')[1]!.split(', ');
    expect(listed.sort()).toEqual([...run.provider.requests[0]!.toolNames].sort());
    expect(listed).not.toContain('remove');
    expect(listed).not.toContain('makeDirectory');
  });

  test.each(['lal', 'fae'] as const)(
    '%s: a call to a tool it does not hold is unknown before any approval: the HOST is never asked about it',
    async persona => {
      const run = await start({
        persona,
        env: { LAL_TOOLS_APPROVE: 'runCommand', LAL_TRUSTED_SENDERS: 'alice' },
        steps: [
          callTool('runCommand', { command: 'ls' }),
          request =>
            callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['done'] }),
        ],
      });
      await run.send('list the files');
      await run.reply('done');
      const error = JSON.parse(run.provider.requests[1]!.messages.at(-1)!.content) as {
        error: string;
      };
      expect(error.error).toMatch(/^Unknown tool "runCommand"\. The tools you have are: /);
      const asked = await E(run.host.host).listMessages();
      expect(asked.filter(message => message.type === 'request')).toEqual([]);
      expect(await run.help()).not.toMatch(/approval a1/);
    },
  );

  test('with an allow list only those tools are offered (list: the names tool with that op alone)', async () => {
    const run = await start({ env: { LAL_TOOLS_ALLOW: 'reply,list' }, steps: [say('ok')] });
    await run.send('hello');
    await run.reply('ok');
    expect(run.provider.requests[0]!.toolNames.sort()).toEqual(['names', 'reply']);
    const names = run.provider.requests[0]!.tools.find(tool => tool.function.name === 'names')!;
    expect(names.function.parameters.properties?.op?.enum).toEqual(['list']);
  });
});

describe('approval by the HOST (LAL_TOOLS_APPROVE)', () => {
  const startGated = async (trusted = 'alice') => {
    let origin = -1;
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: trusted },
      steps: [
        request => {
          origin = latestMessageNumber(request);
          return callTool('makeDirectory', { petNamePath: ['box'] });
        },
        say(''),
      ],
    });
    await run.send('make a box');
    return { run, origin: () => origin };
  };

  test('the call is pending until the HOST resolves the request; other mail is answered meanwhile; yes runs it', async () => {
    const { run, origin } = await startGated();
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    expect(asked.description).toMatch(
      /^While serving message #\d+ from HOST, Lal asks to call makeDirectory \{"petNamePath":\["box"\]\}, asked because LAL_TOOLS_APPROVE gates this tool for HOST, whom LAL_TRUSTED_SENDERS does not name \(approval a1\)/,
    );
    await expect.poll(() => turnEnds(run)).toBe(1);
    expect(JSON.parse(run.provider.requests[1]!.messages.at(-1)!.content)).toMatchObject({
      status: 'pending',
      approvalId: 'a1',
    });
    expect(await guestHas(run, 'box')).toBe(false);
    expect(await run.help()).toMatch(/waiting for HOST's approval a1: makeDirectory/);

    run.provider.push(say('pong'));
    await run.send('ping');
    await run.reply('pong');
    expect(await guestHas(run, 'box')).toBe(false);

    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(
        /^APPROVED: HOST approved the call makeDirectory .*\(approval a1\); it ran and returned: .*box/,
      );
      return callTool('reply', { messageNumber: origin(), strings: ['The box is made'] });
    });
    await E(run.host.host).storeValue(harden('yes'), 'yes');
    await E(run.host.host).resolve(asked.number, 'yes');
    await run.reply('The box is made');
    expect(await guestHas(run, 'box')).toBe(true);
  });

  test('a rejection refuses the call, and the model is told the reason', async () => {
    const { run, origin } = await startGated();
    const asked = await waitForMessage(run.host, (message: Message) => message.type === 'request');
    await expect.poll(() => turnEnds(run)).toBe(1);
    run.provider.push(request => {
      const notice = request.messages.at(-1)!.content;
      expect(notice).toMatch(/^REFUSED: HOST refused the call makeDirectory .*: not today/);
      return callTool('reply', { messageNumber: origin(), strings: ['HOST said no'] });
    });
    await E(run.host.host).reject(asked.number, 'not today');
    await run.reply('HOST said no');
    expect(await guestHas(run, 'box')).toBe(false);
  });

  test('a trusted sender (HOST by default) uses the tool without asking', async () => {
    const run = await start({
      env: { LAL_TOOLS_APPROVE: 'makeDirectory' },
      steps: [
        callTool('makeDirectory', { petNamePath: ['box'] }),
        request =>
          callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['made'] }),
      ],
    });
    await run.send('make a box');
    await run.reply('made');
    expect(await guestHas(run, 'box')).toBe(true);
  });
});

describe('a list that names nothing', () => {
  test('LAL_TOOLS_ALLOW="," is an empty list: no tool is offered, and the HOST is told at start', async () => {
    const run = await start({ env: { LAL_TOOLS_ALLOW: ',' }, steps: [say('hi')] });
    const problem =
      'LAL_TOOLS_ALLOW is ",": it names no tool, so no tool is offered (unset, every tool is).';
    // The greeting marks names as code.
    expect(textOf(run.greeting!).replaceAll('`', '')).toContain(problem);
    expect(await run.help()).toContain(`configuration: ${problem}`);
    await run.send('hello');
    await run.reply('hi');
    expect(run.provider.requests[0]!.toolNames).toEqual([]);
  });
});

describe("help()'s policy lines", () => {
  test.each([
    ['f0a46042a', 'HOST'],
    ['newest', '@host'],
  ] as const)('name the approver as the %s daemon names the HOST', async (profile, host) => {
    const run = await start({
      profile,
      env: { LAL_TOOLS_APPROVE: 'makeDirectory' },
      steps: [say('hi')],
    });
    expect(await run.help()).toContain(
      `${host} approves each call of: makeDirectory (not asked while serving HOST, @host)`,
    );
  });
});

describe('a misspelt tool name in a policy list', () => {
  const misspelt =
    'LAL_TOOLS_DENY names lisMessages, no tool known at start; did you mean listMessages?';
  test.each(['f0a46042a', 'newest'] as const)(
    'is said once at start, in the log and help(), with the nearest tool (%s daemon); it is kept as written',
    async profile => {
      const run = await start({
        profile,
        env: { LAL_TOOLS_DENY: 'lisMessages', LAL_TOOLS_APPROVE: 'reply, zzqx' },
        steps: [say('hi')],
      });
      await run.send('hello');
      await run.reply('hi');
      expect(run.logs.filter(line => line.includes('lisMessages'))).toEqual([
        `configuration: ${misspelt}`,
      ]);
      expect(run.logs.filter(line => line.includes('zzqx'))).toEqual([
        'configuration: LAL_TOOLS_APPROVE names zzqx, no tool known at start (a tool attached later under that name is judged by it)',
      ]);
      expect(await run.help()).toContain(`configuration: ${misspelt}`);
    },
  );

  test('a tool the agent holds at start is known: only the misspelling of it is said', async () => {
    const run = await start({
      host: await makeToolboxHost(),
      persona: 'fae',
      env: { LAL_TOOLS_APPROVE: 'calendar_create_item, calendar_creat_item' },
      introducedNames: { work: 'work', more: 'more' },
      steps: [say('hi')],
    });
    await run.send('hello');
    await run.reply('hi');
    const said = run.logs.filter(line => line.includes('LAL_TOOLS_APPROVE'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^configuration: LAL_TOOLS_APPROVE names calendar_creat_item, no tool known at start; did you mean calendar_create_item\b/,
    );
  });
});
