/**
 * Something to try the agent with, without a model: `npm run model-double`
 * serves the scripted double on the three wire protocols, and `npm start --
 * --demo` starts it in-process (README, "Try it without a model";
 * docs/daemon-guide.md's sessions use the same double on 127.0.0.1:18181).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { demoModel } from '../sim/model-server/demo-model.js';
import { workOut } from '../sim/model-server/arithmetic.js';
import { startDemoServers } from '../sim/model-server/demo-servers.js';
import type { ModelServer, NormalizedRequest } from '../sim/model-server/index.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';
import { readRepoFile } from './support/repo-files.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { screenLines } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const told = (text: string, toolNames: string[] = ['reply', 'evaluate', 'mail']) =>
  ({
    protocol: 'openai',
    index: 0,
    model: 'double-model',
    messages: [
      { role: 'system', text: 'You are Lal.' },
      { role: 'user', text },
    ],
    toolNames,
    maxTokens: undefined,
    bytes: 0,
  }) satisfies NormalizedRequest;

/** `ask` in a turn that offers the toolbox, once its find answered with `found` of `of` tools. */
const afterFinding = (ask: string, found: unknown[], of: number): NormalizedRequest => ({
  ...told(ask, ['reply', 'toolbox']),
  messages: [
    { role: 'user', text: ask },
    { role: 'tool', text: JSON.stringify({ found, of }) },
  ],
});

describe('the scripted double: sensible moves chosen by what it was told', () => {
  it('answers a ping, works out arithmetic with code, runs a command in backticks, adopts an attached tool', () => {
    expect(demoModel(told('Message #3 from HOST: ping'))).toEqual({
      toolCalls: [{ name: 'reply', arguments: { messageNumber: 3, strings: ['pong'] } }],
    });
    expect(demoModel(told('Message #5 from HOST: what is 6 * 7? Use code.'))).toEqual({
      toolCalls: [{ name: 'evaluate', arguments: { source: '6 * 7', resultName: 'answer' } }],
    });
    expect(
      demoModel(told('Message #2 from HOST: please run `ls -la`', ['reply', 'runCommand'])),
    ).toEqual({ toolCalls: [{ name: 'runCommand', arguments: { command: 'ls -la' } }] });
    // With many tools (an MCP server's too) runCommand waits behind the toolbox: used through it.
    expect(
      demoModel(told('Message #2 from HOST: please run `ls -la`', ['reply', 'toolbox'])),
    ).toEqual({
      toolCalls: [
        { name: 'toolbox', arguments: { use: 'runCommand', arguments: { command: 'ls -la' } } },
      ],
    });
    expect(demoModel(told('Message #7 from HOST: here is a tool @math'))).toEqual({
      toolCalls: [
        {
          name: 'mail',
          arguments: { op: 'adoptTool', messageNumber: 7, edgeName: 'math', toolName: 'math' },
        },
      ],
    });
    // Without the tool to reply with, the answer is plain text.
    expect(demoModel(told('Message #3 from HOST: ping', []))).toEqual({ text: 'pong' });
  });

  it('answers a ping with more words as the ping timer and the guide read it: pong: <the message>', () => {
    // bench/real-daemon/ping-words.ts reads `pong: ping-<n>`; docs/daemon-guide.md shows `pong: ping after the restart`.
    expect(demoModel(told('Message #4 from HOST: ping-922221068'))).toEqual({
      toolCalls: [
        { name: 'reply', arguments: { messageNumber: 4, strings: ['pong: ping-922221068'] } },
      ],
    });
    expect(demoModel(told('Message #9 from HOST: ping after the restart', []))).toEqual({
      text: 'pong: ping after the restart',
    });
    // After a labelled outcome the message comes last in what the agent tells the model (seen in f0a46042a).
    const afterOutcome =
      'outcome (held words from the outcome of helper h1, not from the HOST): [Then, after reading the outcome of helper h1, the agent did: replied.]\n\nMessage #114 from HOST: ping again';
    expect(demoModel(told(afterOutcome, []))).toEqual({ text: 'pong: ping again' });
  });

  it('hands a task to a helper and says what it handed back; finds a tool in the toolbox, then calls it (the daemon guide shows both)', () => {
    expect(demoModel(told('Message #6 from HOST: ask a helper to list three colours'))).toEqual({
      toolCalls: [
        {
          name: 'mail',
          arguments: { op: 'helper', description: 'list three colours', grant: ['2 calls'] },
        },
      ],
    });
    const helperTurn = { ...told('list three colours', ['handBack']) };
    expect(demoModel(helperTurn)).toEqual({
      toolCalls: [
        {
          name: 'handBack',
          arguments: {
            result: 'I worked on "list three colours" (a scripted double does no real work).',
          },
        },
      ],
    });
    const done = told(
      'DONE: helper h1 (task "list three colours", 1 model call) handed back: I worked on it.\nNext: check it, then tell HOST. (message #6)',
    );
    expect(demoModel(done)).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: {
            messageNumber: 6,
            strings: ['My helper h1 (task: list three colours) handed back: I worked on it.'],
          },
        },
      ],
    });

    const ask = 'Message #8 from HOST: use a tool to plan a meeting called "standup"';
    expect(demoModel(told(ask, ['reply', 'toolbox']))).toEqual({
      toolCalls: [{ name: 'toolbox', arguments: { find: 'plan a meeting' } }],
    });
    const afterFind = afterFinding(
      ask,
      [{ name: 'calendar_create_item', description: 'Create a meeting in the calendar.' }],
      120,
    );
    expect(demoModel(afterFind)).toEqual({
      toolCalls: [
        {
          name: 'toolbox',
          arguments: { use: 'calendar_create_item', arguments: { title: 'standup' } },
        },
      ],
    });
  });

  // Only docs/mcp.md's exact sentence worked (issue 45, trial 12): any request naming echo and a
  // tool (or MCP) does, the text to echo taken from it, so an MCP server's echo works from --demo.
  const echoFound = {
    name: 'echo',
    description: 'Echoes back the input',
    parameters: {
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    },
  };
  it.each([
    ['use a tool to echo hello', 'hello'],
    ['echo hello with the mcp tool', 'hello'],
    ['call the echo tool with hi', 'hi'],
    ['Use the MCP echo tool to say good morning.', 'good morning'],
    ['echo "two words" using a tool', 'two words'],
    ['please echo hi there through MCP', 'hi there'],
  ])("picks an MCP server's echo for %j, echoing %j", (asked, text) => {
    const ask = `Message #3 from HOST: ${asked}`;
    // Offered itself (under the schema budget), it is called at once.
    expect(demoModel(told(ask, ['reply', 'echo']))).toEqual({
      toolCalls: [{ name: 'echo', arguments: { message: text } }],
    });
    // Behind the toolbox: found, then used.
    expect(demoModel(told(ask, ['reply', 'toolbox']))).toEqual({
      toolCalls: [{ name: 'toolbox', arguments: { find: 'echo' } }],
    });
    // Then found as an MCP server lists it: its first required parameter filled (docs/mcp.md).
    expect(demoModel(afterFinding(ask, [echoFound], 13))).toEqual({
      toolCalls: [{ name: 'toolbox', arguments: { use: 'echo', arguments: { message: text } } }],
    });
  });

  it('leaves its other scripts as they were: a message naming echo alone, or a tool alone', () => {
    expect(demoModel(told('Message #3 from HOST: echo hello', ['reply', 'echo']))).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: {
            messageNumber: 3,
            strings: [expect.stringMatching(/^You said "echo hello"/)],
          },
        },
      ],
    });
    expect(
      demoModel(told('Message #3 from HOST: use a tool to plan a meeting', ['reply', 'toolbox'])),
    ).toEqual({ toolCalls: [{ name: 'toolbox', arguments: { find: 'plan a meeting' } }] });
  });

  it('schedules a reminder or a recurring check, and says the note when its wake-up comes', () => {
    const tools = ['reply', 'send', 'schedule'];
    expect(
      demoModel(told('Message #3 from HOST: remind me in 30 seconds to stretch', tools)),
    ).toEqual({
      toolCalls: [{ name: 'schedule', arguments: { delaySeconds: 30, note: 'stretch' } }],
    });
    expect(demoModel(told('Message #4 from HOST: every 2 minutes check the inbox', tools))).toEqual(
      {
        toolCalls: [{ name: 'schedule', arguments: { every: '2m', note: 'check the inbox' } }],
      },
    );
    const wake = [
      'WAKE-UP w1: the time you set has come (2026-11-29T01:00:30.000Z; set at 2026-11-29T01:00:00.000Z while serving message #3 from HOST).',
      'Your note: "stretch"',
      'Next: do what the note says, then tell HOST with send("HOST", …) (message #3 may be gone).',
    ].join('\n');
    expect(demoModel(told(wake, tools))).toEqual({
      toolCalls: [{ name: 'send', arguments: { recipient: 'HOST', strings: ['w1: stretch'] } }],
    });
    // What the schedule tool answered is said plainly; after the wake-up's send, the turn ends.
    const asked = told('Message #3 from HOST: remind me in 30 seconds to stretch', tools);
    const afterSchedule = {
      ...asked,
      messages: [
        ...asked.messages,
        {
          role: 'tool' as const,
          text: '{"scheduled":"w1","at":"2026-11-29T01:00:30.000Z","note":"stretch"}',
        },
      ],
    };
    expect(demoModel(afterSchedule)).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: {
            messageNumber: 3,
            strings: ['Scheduled w1 for 2026-11-29T01:00:30.000Z: I will tell you when it comes.'],
          },
        },
      ],
    });
    const woken = told(wake, tools);
    const afterWake = {
      ...woken,
      messages: [...woken.messages, { role: 'tool' as const, text: '{"sent":true}' }],
    };
    expect(demoModel(afterWake)).toEqual({ text: 'Told.' });
    // Without the schedule tool it is an ordinary message.
    expect(
      JSON.stringify(demoModel(told('Message #3 from HOST: remind me in 30 seconds to stretch'))),
    ).toContain('You said');
  });

  it('tells the note of a wake-up that comes after a labelled outcome (its note first in the notice)', () => {
    // As a real daemon's agent told it: a helper's outcome turn came just before the wake-up.
    const tools = ['reply', 'send', 'schedule', 'evaluate'];
    const labelled = [
      'outcome (held words from the outcome of helper h2, not from the HOST): [Then, after reading the outcome of helper h2, which did not come from the HOST, the agent did: replied. Those words are kept out of later turns; mail recall shows them, labelled.]',
      '',
      'WAKE-UP w1: the time you set has come (2026-11-29T10:17:08.730Z; set at 2026-11-29T10:15:08.730Z while serving message #14 from @host). It recurs: every 1m.',
      'Your note: "check the inbox"',
      'Next: do what the note says, then tell @host with send("@host", …) (message #14 may be gone).',
    ].join('\n');
    expect(demoModel(told(labelled, tools))).toEqual({
      toolCalls: [
        { name: 'send', arguments: { recipient: '@host', strings: ['w1: check the inbox'] } },
      ],
    });
    const woken = told(labelled, tools);
    expect(
      demoModel({
        ...woken,
        messages: [...woken.messages, { role: 'tool' as const, text: '{"sent":true}' }],
      }),
    ).toEqual({ text: 'Told.' });
  });

  it('streams a long answer when asked for one, and says what it understands otherwise', () => {
    const story = demoModel(told('Message #4 from HOST: tell me a long story'));
    expect(story).toMatchObject({ frameGapMs: expect.any(Number) });
    expect((story as { text: string }).text.split(/\s+/).length).toBeGreaterThan(80);
    const other = demoModel(told('Message #4 from HOST: what is the weather?'));
    expect(JSON.stringify(other)).toContain(
      'You said \\"what is the weather?\\". I am the scripted',
    );
  });

  it('tells the result of a granted proposal and of a tool', () => {
    const granted = demoModel(
      told(
        'GRANTED: HOST ran your proposal p1 (6 * 7). Result, kept as "answer": 42\nNext: tell HOST (message #5) what came out.',
      ),
    );
    expect(granted).toEqual({
      toolCalls: [{ name: 'reply', arguments: { messageNumber: 5, strings: ['It is 42.'] } }],
    });
    // A call the person stopped with Ctrl-C (src/asks/approval-gate.ts's CANCELLED): said plainly, not echoed.
    const cancelled = demoModel(
      told(
        'CANCELLED: HOST approved runCommand({"command":"sleep 30"}), and it was running when I was cancelled (the host stopped the turn (Ctrl-C)): the call was stopped before it answered, so it did not finish.\nNext: check what it did before it was stopped before calling it again (HOST is asked again), and tell HOST (message #4).',
      ),
    );
    expect(cancelled).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: {
            messageNumber: 4,
            strings: [
              'Stopped: runCommand({"command":"sleep 30"}) was cancelled before it finished (the host stopped the turn (Ctrl-C)).',
            ],
          },
        },
      ],
    });
    const request = told('Message #2 from HOST: run `echo hi`', ['reply', 'runCommand']);
    const after = {
      ...request,
      messages: [...request.messages, { role: 'tool' as const, text: '{"stdout":"hi\\n"}' }],
    };
    expect(demoModel(after)).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: { messageNumber: 2, strings: ['The tool answered: stdout: hi'] },
        },
      ],
    });
  });
});

let double: ChildProcess | undefined;
let servers: ModelServer[] = [];
afterEach(async () => {
  double?.kill('SIGTERM');
  double = undefined;
  await Promise.all(servers.map(server => server.close()));
  servers = [];
});

/** `npm run model-double -- <args>`, and the settings it printed for each protocol. */
const startDouble = (args: string[]) =>
  new Promise<string[]>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'scripts', 'start.mjs'), '--program', 'sim/model-server/main.js', ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, LAL_SIM_NO_BUILD: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    double = child;
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      // The banner's commands, each whole on a line of its own under its protocol's name.
      if (out.includes('long story when asked'))
        resolve([...out.matchAll(/^ {4}(LAL_HOST=.*) npm start$/gm)].map(m => m[1]!));
    });
    child.on('error', reject);
    child.on('close', code => reject(Error(`model-double exited ${code}: ${err}${out}`)));
  });

const asEnv = (settings: string): Record<string, string> =>
  Object.fromEntries(settings.split(' ').map(pair => pair.split('=') as [string, string]));

describe('the scripted double in a channel', () => {
  it('answers the message a channel turn asks about, and speaks unaddressed only for a question', () => {
    const thread = [
      "The channel's recent messages:",
      '#0 Ann: ping everyone',
      // An earlier answer that quotes a request: the message asked about is still #2.
      '#1 you (Lal): You said "The channel\'s recent messages:',
      '#0 Ann: ping everyone',
      '',
      'Answer #0 from Ann."',
      '#1 you (Lal): pong',
      '#2 Bob: please tell a long story',
      '',
      'Answer #2 from Bob.',
    ].join('\n');
    expect(demoModel(told(thread, []))).toMatchObject({
      text: expect.stringMatching(/^Here is a long answer/),
    });
    const routing = (last: string) => ({
      ...told(`Ann: hello\nBob: ${last}`, []),
      messages: [
        {
          role: 'system' as const,
          text: 'You decide whether Lal, a member of a group chat, should answer.',
        },
        { role: 'user' as const, text: `Ann: hello\nBob: ${last}` },
      ],
    });
    expect(demoModel(routing('does anyone know the time?'))).toEqual({ text: 'yes' });
    expect(demoModel(routing('nice weather today'))).toEqual({ text: 'no' });
  });

  it('works arithmetic out itself in a channel, which offers no evaluate, and says why no code runs', () => {
    const thread = [
      "The channel's recent messages:",
      '#0 member 0 (named "you"): hello @lal what is (2+3) * 4?',
      '',
      'Answer #0 from member 0 (named "you").',
    ].join('\n');
    expect(demoModel(told(thread, []))).toEqual({
      text: "(2+3) * 4 = 20 (worked out without running code: a channel's turn holds only the channel's powers, so I cannot run code here; mail me directly to have code run)",
    });
    // A mail turn without evaluate (denied) says so in its own words.
    expect(demoModel(told('Message #3 from HOST: what is 6 * 7?', ['reply']))).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: {
            messageNumber: 3,
            strings: [
              '6 * 7 = 42 (worked out without running code: I was not given evaluate, so I cannot run code)',
            ],
          },
        },
      ],
    });
  });
});

describe("the double's own arithmetic", () => {
  it.each([
    ['6 * 7', 42],
    ['2 + 3 * 4', 14],
    ['(2 + 3) * 4', 20],
    ['10 - 4 - 3', 3],
    ['-3 + 5', 2],
    ['7 % 4', 3],
    ['1.5 * 2', 3],
    ['8 / 2 / 2', 2],
  ])('%s is %d', (text, value) => {
    expect(workOut(text)).toBe(value);
  });

  it.each(['1 / 0', '2 +', '(1 + 2', '1 + 2)', 'two + 3', '', '3 4'])(
    '%j is not worked out',
    text => {
      expect(workOut(text)).toBeUndefined();
    },
  );
});

describe('npm run model-double', () => {
  it('serves the OpenAI, Anthropic and Ollama wire protocols, and the simulator talks to each', async () => {
    const settings = await startDouble(['--port', '0']);
    expect(settings).toHaveLength(3);
    expect(settings[0]).toMatch(/^LAL_HOST=http:\/\/127\.0\.0\.1:\d+\/v1 LAL_MODEL=double-model$/);
    expect(settings[1]).toMatch(/LAL_PROVIDER=anthropic/);
    const runs = await Promise.all(
      settings.map(each =>
        runSim(['--fresh'], asEnv(each), input => {
          input.write('ping\n');
          input.end();
        }),
      ),
    );
    for (const [index, run] of runs.entries()) {
      expect(run.stderr, settings[index]).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^#\d+ lal › pong$/m);
    }
    expect(runs.map(run => /\((openai|anthropic|ollama)\)\.$/m.exec(run.stdout)?.[1])).toEqual([
      'openai',
      'anthropic',
      'ollama',
    ]);
  });

  it('refuses a bad flag in one line, and names a port in use', async () => {
    servers = await startDemoServers(0, ['openai']);
    const [server] = servers;
    const taken = Number(new URL(server!.url).port);
    await expect(startDouble(['--port', String(taken)])).rejects.toThrow(
      `npm run model-double failed: port ${taken} is in use (for openai); choose others with --port <n>`,
    );
    await expect(startDouble(['--protocol', 'gemini'])).rejects.toThrow(
      '--protocol must be one of openai, anthropic, ollama; got "gemini"',
    );
  });
});

describe('npm start -- --demo', () => {
  it('thinks with the double started in-process: an eval-proposal granted, then a long answer streamed', async () => {
    const run = await runSim(['--demo'], { LAL_HOST: 'http://127.0.0.1:9' }, input => {
      input.write('what is 6 * 7?\n');
      void input.waitFor(/eval-proposal #(\d+)\):/).then(found => {
        input.write(`/grant ${found[1]}\ntell me a long story\n`);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /thinks with double-model, the only model of the scripted model double that --demo started in this process \(openai\)\./,
    );
    expect(run.stdout).toMatch(/lal-fae\/lal-demo /);
    // The person set no LAL_MODEL (nor does --demo honour one): the greeting says where the model came from.
    expect(run.stdout).toMatch(
      /^#\d+ lal › Lal agent ready\. I think with double-model \(openai\), the only model the server lists\.$/m,
    );
    // The demo picks its model: nothing says to set LAL_MODEL.
    expect(run.stdout).not.toContain('LAL_MODEL');
    expect(run.stdout).toMatch(/^#\d+ lal › It is 42\.$/m);
    expect(run.stdout).toMatch(/^#\d+ lal › Here is a long answer, streamed/m);
  });
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe("README's toolbox example, as printed", () => {
  it('is what a terminal shows in npm start -- --demo: /attach toolbox, then a tool found by what it does and called', async () => {
    const readme = readRepoFile('README.md');
    const section = readme.slice(readme.indexOf('### Try it without a model'));
    const block = /```\n(\$ npm start -- [^\n]*\n[\s\S]*?)```/.exec(section)?.[1];
    expect(block, 'the README shows the toolbox session as a terminal does').toMatch(
      /^› \/attach toolbox$/m,
    );
    const [command, ...printed] = block!.trimEnd().split('\n');
    const args = command!.replace('$ npm start -- ', '').split(' ');
    // Each line typed at the prompt once the line the README shows before it is on the screen.
    const steps = printed.flatMap((line, index) => {
      if (!line.startsWith('› ')) return [];
      const before = printed[index - 1]!;
      const after =
        before === '…' ? /agent ready/ : new RegExp(escaped(before.trim().slice(0, 16)));
      return [{ after, keys: `${line.slice(2)}\r` }];
    });
    const last = printed.at(-1)!;
    steps.push({ after: new RegExp(escaped(last.trim().slice(0, 16))), keys: '/quit\r' });
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const output = await runSimOnTty(args, state, steps, makeTempFolder('cwd'));
    // Drawn by a terminal emulator wider than any line (the terminal says no width: nothing is
    // wrapped), so the status row drawn and cleared in turns is not among them.
    const lines = await screenLines(output, 1000);
    // Every line the README prints comes, in its order, and right after the one before it unless `…` says lines were left out.
    let at = 0;
    let leftOut = true;
    for (const line of printed) {
      if (line === '…') {
        leftOut = true;
        continue;
      }
      const found = lines.indexOf(line, at);
      expect(found, `${line}\n--- on the screen:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
      if (!leftOut) expect(found, `a line left out before ${line} (mark it with …)`).toBe(at);
      at = found + 1;
      leftOut = false;
    }
    // Kept in the state folder as the other attached tools are: the next run has it still.
    const typed = printed.filter(line => line.startsWith('› ')).map(line => line.slice(2));
    const again = await runSim(args, state, input => {
      input.write(`${typed.at(-1)!}\n`);
      input.end();
    });
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(/^Given back to the agent: .*\(sample-toolbox\)\.$/m);
    const answer = printed.find(line => /^#\d+ lal › /.test(line))!;
    expect(again.stdout).toContain(answer.replace(/^#\d+ /, ''));
  });

  it('says how to get a toolbox when asked to use a tool without one', () => {
    const ask = told('Message #3 from HOST: use a tool to plan a meeting called "standup"');
    expect(JSON.stringify(demoModel(ask))).toContain('/attach toolbox gives me 120 sample tools');
  });
});

describe('a tool the person attached, once adopted (README: "I adopted math; ask me to use it.")', () => {
  const holding = ['reply', 'evaluate', 'mail', 'math', 'greet', 'timestamp'];
  const callOf = (text: string, tools = holding) =>
    (demoModel(told(`Message #5 from HOST: ${text}`, tools)) as { toolCalls?: unknown[] })
      .toolCalls?.[0];

  it('is used when asked for: math, greet and timestamp called with their arguments', () => {
    expect(callOf('use the math tool to compute 6 * 7')).toEqual({
      name: 'math',
      arguments: { operation: 'multiply', a: 6, b: 7 },
    });
    expect(callOf('use a tool to multiply 6 by 7')).toEqual({
      name: 'math',
      arguments: { operation: 'multiply', a: 6, b: 7 },
    });
    expect(callOf('use a tool to subtract 2 from 5')).toEqual({
      name: 'math',
      arguments: { operation: 'subtract', a: 5, b: 2 },
    });
    expect(callOf('use a tool to greet Bob')).toEqual({
      name: 'greet',
      arguments: { name: 'Bob' },
    });
    expect(callOf('what time is it? use the timestamp tool')).toEqual({
      name: 'timestamp',
      arguments: {},
    });
  });

  it('is not reached for when the message asks for no tool, nor when the agent does not hold it', () => {
    // README's first session: arithmetic worked out with code, as before.
    expect(callOf('what is 6 * 7? Work it out with code.')).toEqual({
      name: 'evaluate',
      arguments: { source: '6 * 7', resultName: 'answer' },
    });
    expect(JSON.stringify(callOf('use a tool to multiply 6 by 7', ['reply', 'mail']))).toContain(
      '/attach toolbox gives me 120 sample tools',
    );
  });

  it('in npm start -- --demo: /attach math, then asked to use it, it does and tells the result', async () => {
    const run = await runSim(['--demo', '--persona', 'fae'], {}, input => {
      input.write('/attach math\n');
      void input.waitFor(/ask me to use it/).then(() => {
        input.write('use the math tool to multiply 6 by 7\n');
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/→ math operation="multiply" a=6 b=7 ✓/);
    expect(run.stdout).toMatch(/^#\d+ fae › The tool answered: .*result: 42$/m);
    expect(run.code).toBe(0);
  });
});

describe('a counter-proposal in --demo', () => {
  /** What the agent is told of message #4's counter-proposal of `code`. */
  const counterNotice = (code: string) =>
    [
      'COUNTER-PROPOSAL: message #4 from HOST proposes different code:',
      code,
      'Endowments: none',
      'Worker: a new worker; result name: none',
      'Consider it: if it does what was asked, use it (propose it with evaluate if you need its result); otherwise reply(4, …) saying why not.',
    ].join('\n');

  it('is the answer when its code is arithmetic: worked out and told, not proposed again', () => {
    const notice = counterNotice('7 * 6 + 1');
    expect(demoModel(told(notice))).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: {
            messageNumber: 4,
            strings: [
              'It is 43 (7 * 6 + 1, the code you gave instead, worked out without running it).',
            ],
          },
        },
      ],
    });
  });

  it("is taken up whole, its code proposed (not the notice's heading cut at its colon)", () => {
    const notice = counterNotice('const at = "time: 12:30";\nat.length');
    expect(demoModel(told(notice))).toEqual({
      toolCalls: [
        {
          name: 'evaluate',
          arguments: { source: 'const at = "time: 12:30";\nat.length', resultName: 'answer' },
        },
      ],
    });
    expect(demoModel(told(notice, ['reply']))).toEqual({
      toolCalls: [
        {
          name: 'reply',
          arguments: {
            messageNumber: 4,
            strings: ['My host proposes different code: const at = "time: 12:30";\nat.length'],
          },
        },
      ],
    });
  });

  it.each([
    ['f0a46042a', []],
    ['the newest daemon', ['--newest']],
  ])(
    '/counter on %s: the code the person gave is the answer, worked out, not proposed back to them',
    async (_daemon, flags) => {
      const run = await runSim(['--demo', ...flags], {}, input => {
        input.write('what is 6 * 7?\n');
        void input.waitFor(/\/counter (\d+) <source>/).then(async found => {
          input.write(`/counter ${found[1]} 7 * 6 + 1\n`);
          await input.waitFor(/lal › It is 43 /);
          input.end();
        });
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^sent a counter-proposal for #\d+/m);
      expect(run.stdout).toMatch(
        /^#\d+ lal › It is 43 \(7 \* 6 \+ 1, the code you gave instead, worked out without running it\)\.$/m,
      );
      // Asked once, for its own code; the person's code is not put to them again.
      expect(run.stdout.match(/ asks to run code /g)).toHaveLength(1);
      expect(run.stdout).not.toMatch(/proposes different code:$/m);
    },
  );
});
