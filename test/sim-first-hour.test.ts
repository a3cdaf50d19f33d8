/**
 * A newcomer's first hour at `npm start` (issue 45), as a terminal emulator draws it
 * (@xterm/headless) or as a script reads it piped: a command typed while an answer streams
 * shows its echo first and its output after it, never inside the answer; an empty Enter
 * redraws the prompt; leaving with Ctrl-C says so in one line; on a terminal notes wrap at
 * words; a cut entry ends with "…"; piped commands wait until the agent is ready
 * (docs/behaviour.md 10.2, 10.3).
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP } from '../sim/chat/commands.js';
import { makeSimRunner } from './support/run-sim.js';
import { runSimOnTty, type TtyStep } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenLines, screenRows } from './support/terminal-screen.js';
import { useModelServers } from './support/model-servers.js';
import { useRawServer } from './support/raw-http-server.js';
import type { NormalizedRequest, ScriptedReply } from '../sim/model-server/index.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);
const startServer = useModelServers();
const { serve } = useRawServer();

const COLUMNS = 80;

const onTerminal = (steps: readonly TtyStep[], state = makeTempFolder('state')) =>
  runSimOnTty(
    ['--demo', '--persona', 'fae', '--fresh'],
    { XDG_STATE_HOME: state, TMPDIR: makeTempFolder('tmp') },
    steps,
    makeTempFolder('cwd'),
    { columns: COLUMNS, rows: 30 },
  );

/** A turn's summary, wrapped at words or not. */
const turnOver = /turn over: [^]*?out\s+tokens/;

describe('a command typed while an answer streams', () => {
  it('shows its echo first and its output after it, never inside the answer', async () => {
    const output = await onTerminal([
      { after: /agent ready/, keys: 'tell me a long story\r' },
      { after: /is writing/, keys: '/schedules\r' },
      { after: turnOver, keys: '/quit\r' },
    ]);
    const lines = await screenLines(output, COLUMNS);
    const echo = lines.indexOf('› /schedules');
    const said = lines.indexOf('No schedules.');
    expect(echo).toBeGreaterThan(-1);
    expect(said).toBeGreaterThan(echo);
    // The answer, from its head to its last words, then its turn's summary: nothing between.
    const head = lines.findIndex(line => /^#\d+ fae › Here is a long answer/.test(line));
    const last = lines.findIndex(line => line.includes('That is all this double has to say'));
    expect(head).toBeGreaterThan(-1);
    expect(last).toBeGreaterThan(head);
    expect(said < head || said > last).toBe(true);
    expect(echo < head || echo > last).toBe(true);
    const after = lines.slice(last + 1).find(line => line.trim() !== '');
    expect(after).toMatch(/^ {2}· turn over: /);
  });
});

describe('an empty Enter', () => {
  it('redraws the prompt, so what is typed next is typed after it', async () => {
    const output = await onTerminal([
      { after: /agent ready/, keys: '\rping\r' },
      { after: turnOver, keys: '/quit\r' },
    ]);
    const lines = await screenLines(output, COLUMNS);
    expect(lines).toContain('› ping');
    expect(lines).not.toContain('ping');
  });
});

describe('leaving with a second Ctrl-C', () => {
  /** The last lines on the screen, wrapped at words: they say it left and where the conversation is kept. */
  const saysItLeft = async (output: string) => {
    const lines = (await screenLines(output, COLUMNS)).filter(line => line.trim() !== '');
    const left = lines.findLastIndex(line => line.startsWith('Left. '));
    expect(left).toBeGreaterThan(-1);
    expect(lines.slice(left).join(' ')).toMatch(
      /^Left\. fae's conversation and tools are kept in \S+fae-demo\.$/,
    );
  };

  it('says in one line that it left, and what was kept, at an idle prompt', async () => {
    const output = await onTerminal([
      { after: /agent ready/, keys: '\x03' },
      { after: /leaves\)/, keys: '\x03' },
    ]);
    await saysItLeft(output);
  });

  it('says so mid-turn too', async () => {
    const output = await onTerminal([
      { after: /agent ready/, keys: 'tell me a long story\r' },
      { after: /is writing/, keys: '\x03' },
      { after: /Ctrl-C again leaves/, keys: '\x03' },
    ]);
    await saysItLeft(output);
  });
});

describe('leaving a piped run', () => {
  // A typed /quit said it left and a piped one did not (issue 45, trial 12): the one line, both ways.
  it.each([
    ['/quit', '/quit\n'],
    ['the end of the input', ''],
  ])('by %s says in its last line that it left, and what was kept', async (_by, typed) => {
    const run = await runSim(['--demo', '--persona', 'fae', '--fresh'], {}, input => {
      input.write(typed);
      input.end();
    });
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1), run.stdout).toMatch(
      /^Left\. fae's conversation and tools are kept in \S+fae-demo\.$/,
    );
  });
});

describe('on a terminal 80 columns wide', () => {
  it('wraps /help, /status, the approval prompt and the start-up lines at words, within the width', async () => {
    const root = makeTempFolder('root');
    const output = await onTerminal([
      { after: /agent ready/, keys: '/help\r' },
      { after: /\/\/text/, keys: '/status\r' },
      { after: /Always allowed/, keys: `/attach runCommand ${root}\r` },
      { after: /I adopted/, keys: 'please run `echo hi > b.txt`\r' },
      { after: /allow it\?[\s\S]*turn over/, keys: 'n\r' },
      { after: turnOver, keys: '/quit\r' },
    ]);
    const rows = await screenRows(output, COLUMNS);
    const lines = await screenLines(output, COLUMNS);
    // Only the agent's own words are left to the terminal to wrap, a word wider than a row,
    // whole and alone on its row (the log's path), so it copies whole (sim/chat/wrap-words.ts),
    // and /help's example command, one line to copy (trial 14).
    const agentWords = new Set(
      lines.filter(line => /^#\d+ fae › /.test(line)).map(line => line.slice(0, COLUMNS)),
    );
    const wrappedByTerminal = rows.filter((row, index) => {
      const before = rows[index - 1]?.text ?? '';
      return (
        row.wrapped &&
        !agentWords.has(before) &&
        !/^\s*\S+$/.test(before) &&
        !/^ {4}\/attach mcp /.test(before)
      );
    });
    expect(wrappedByTerminal).toEqual([]);
    // Every word of /help is whole on the screen (but one wider than a row: it is cut where the row ends).
    const words = new Set(rows.flatMap(row => row.text.split(/\s+/)));
    const broken = COMMAND_HELP.split(/\s+/).filter(
      word => word !== '' && word.length < 40 && !words.has(word),
    );
    expect(broken).toEqual([]);
    // A list item that wraps goes on under its description, indented.
    const status = rows.findIndex(row => row.text.startsWith('  /status '));
    expect(rows[status + 1]?.text).toMatch(/^ {29}\S/);
    const allow = rows.findIndex(row => row.text.includes('allow it?'));
    expect(rows[allow]?.text).toMatch(/^ {2}allow it\?/);
  });
});

describe('/inbox', () => {
  it('ends an entry it cuts with "…"', async () => {
    const root = makeTempFolder('root');
    const run = await runSim(['--demo', '--persona', 'fae'], {}, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/I adopted/).then(async () => {
        input.write('please run `echo hi > b.txt && echo and a good deal more to say here`\n');
        await input.waitFor(/allow it\?/);
        input.write('/inbox\n');
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    const entry = /^#\d+ fae \(a1\): request: .*$/m.exec(run.stdout)?.[0];
    expect(entry).toBeDefined();
    expect(entry).toMatch(/…$/);
  });
});

/** The model's moves for a tool call that asks the person first, then a word. */
const askFirst = (request: NormalizedRequest): ScriptedReply =>
  request.messages.at(-1)?.role === 'tool'
    ? { text: '' }
    : [...request.messages]
          .reverse()
          .find(message => message.role === 'user')
          ?.text.includes('make a box')
      ? { toolCalls: [{ name: 'makeDirectory', arguments: { petNamePath: ['box'] } }] }
      : { text: 'Noted.' };

/** How long the model server of the second run takes to list its models: the agent greets after. */
const SLOW_LIST_MS = 1_500;

describe('piped, commands given before the agent is ready', () => {
  it('wait until it is, after a restart with a request still waiting', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state'), LAL_TOOLS_CONFIRM: 'makeDirectory' };
    const server = await startServer({ protocol: 'openai', reply: askFirst, models: ['double-a'] });
    const first = await runSim([], { ...state, LAL_HOST: server.url }, input => {
      input.write('make a box\n');
      void input.waitFor(/allow it\?/).then(() => input.end());
    });
    expect(first.stderr).toBe('');
    // The next run's server is slow to list its models, as a real one may be: the agent greets late.
    const slow = await serve((request, response) => {
      if (request.method !== 'GET' || !/\/models$/.test(request.url ?? '')) {
        response.writeHead(404).end();
        return;
      }
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ object: 'list', data: [{ id: 'double-a', object: 'model' }] }),
        );
      }, SLOW_LIST_MS);
    });
    const second = await runSim([], { ...state, LAL_HOST: `${slow}/v1` }, input => {
      input.write('/inbox\n/status\n');
      input.end();
    });
    expect(second.stderr).toBe('');
    const out = second.stdout;
    expect(out).toMatch(/^#\d+ lal › Lal agent ready\./m);
    const greeting = out.search(/^#\d+ lal › Lal agent ready\./m);
    expect(out.indexOf('you › /inbox')).toBeGreaterThan(greeting);
    expect(out.slice(out.indexOf('you › /status'))).toMatch(/^Model:$/m);
  });
});
