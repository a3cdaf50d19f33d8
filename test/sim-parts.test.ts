// The terminal simulator's parts that need no process: flags, .env, typed
// commands, the chat's markup, tool-call lines, the preflight check and the
// console filter.
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { openAgentLog } from '../sim/chat/agent-log-file.js';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseCliArgs } from '../sim/chat/cli-args.js';
import { USAGE } from '../sim/chat/usage.js';
import { capletEnv, loadEnv, parseDotEnv } from '../sim/chat/dotenv.js';
import { COMMAND_HELP, parseCommand } from '../sim/chat/commands.js';
import { renderQuasiMarkdown } from '../sim/chat/quasi-markdown.js';
import { describeToolCall } from '../sim/chat/describe-tool-call.js';
import { describeKept, keptListing } from '../sim/chat/describe-kept.js';
import { checkModelServer } from '../sim/chat/preflight.js';
import { quietConsole } from '../sim/chat/quiet-console.js';
import { makePlainScreen } from '../sim/chat/screen.js';
import { makePresenter } from '../sim/chat/presenter.js';
import { watchQuietServer } from '../sim/chat/quiet-server.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import { startModelServer, type ModelServer } from '../sim/model-server/index.js';
import { recordingScreen } from './support/recording-screen.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

describe('flags', () => {
  it('defaults to lal and reads --persona either way', () => {
    expect(parseCliArgs([])).toEqual({
      ok: true,
      args: {
        persona: 'lal',
        help: false,
        verbose: false,
        fresh: false,
        demo: false,
        newest: false,
        yes: false,
      },
    });
    expect(parseCliArgs(['--persona', 'fae', '--verbose', '--fresh', '--demo', '--yes'])).toEqual({
      ok: true,
      args: {
        persona: 'fae',
        help: false,
        verbose: true,
        fresh: true,
        demo: true,
        newest: false,
        yes: true,
      },
    });
    expect(parseCliArgs(['--persona=FAE'])).toMatchObject({ ok: true, args: { persona: 'fae' } });
  });
  it('names the flag nearest a mistyped one', () => {
    expect(parseCliArgs(['--frsh'])).toEqual({
      ok: false,
      error: 'Unknown argument "--frsh"; did you mean --fresh? (--help lists them)',
    });
    expect(USAGE).toContain("the package's own, beside package.json");
  });
  it('--help is laid out for a terminal 80 columns wide, every line (test/sim-print-width.test.ts)', () => {
    const wide = USAGE.split('\n').filter(line => line.length > 79);
    expect(wide).toEqual([]);
  });
  it('refuses unknown personas and flags with a message', () => {
    expect(parseCliArgs(['--persona', 'bob'])).toEqual({
      ok: false,
      error: '--persona must be lal or fae; got "bob"',
    });
    expect(parseCliArgs(['--persona'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['--colour'])).toEqual({
      ok: false,
      error: 'Unknown argument "--colour"; try --help',
    });
  });
});

describe('persona from the environment (behaviour 7.3)', () => {
  it('LAL_PERSONA from the environment or .env picks the agent; --persona wins; a bad one is refused', () => {
    expect(parseCliArgs([], { LAL_PERSONA: 'fae' })).toMatchObject({
      ok: true,
      args: { persona: 'fae' },
    });
    expect(parseCliArgs(['--persona', 'lal'], { LAL_PERSONA: 'fae' })).toMatchObject({
      ok: true,
      args: { persona: 'lal' },
    });
    expect(parseCliArgs([], { LAL_PERSONA: 'bob' })).toEqual({
      ok: false,
      error: 'LAL_PERSONA must be lal or fae; got "bob"; see docs/configuration.md.',
      setting: true,
    });
    const dir = makeTempFolder('persona');
    writeFileSync(join(dir, '.env'), 'LAL_PERSONA=fae\n');
    expect(parseCliArgs([], loadEnv(dir, {}).env)).toMatchObject({
      ok: true,
      args: { persona: 'fae' },
    });
  });
});

describe('piped mode is not silent during a slow call (behaviour 7.3)', () => {
  it('says when the agent starts working and again while it still is', async () => {
    const lines: string[] = [];
    let heard: (() => void) | undefined;
    const screen = makePlainScreen(text => {
      lines.push(text);
      heard?.();
    }, 5);
    screen.status('lal is thinking…');
    expect(lines).toEqual(['(lal is thinking…)\n']);
    screen.status('lal is using tools…');
    expect(lines).toHaveLength(1);
    await new Promise<void>(resolve => {
      heard = resolve;
    });
    expect(lines[1]).toMatch(/^\(lal is using tools… \d+s\)\n$/);
    screen.status(undefined);
    const count = lines.length;
    screen.status('lal is thinking…');
    expect(lines.slice(count)).toEqual(['(lal is thinking…)\n']);
    screen.close();
  });
});

describe('a streamed reply in the simulator', () => {
  it("shows the reply's latest words on the status line as they come", () => {
    const { statuses, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST' });
    presenter.observe({ kind: 'model-text', call: 1, text: 'The answer' });
    presenter.observe({ kind: 'model-text', call: 1, text: 'The answer is\n42' });
    const long = `${'word '.repeat(40)}end`;
    presenter.observe({ kind: 'model-text', call: 1, text: long });
    expect(statuses.slice(1, 3)).toEqual([
      'lal is writing: The answer',
      'lal is writing: The answer is 42',
    ]);
    expect(statuses[3]).toMatch(/^lal is writing: ….* end$/);
    expect(statuses[3]!.length).toBeLessThan(80);
  });
});

describe('a model server that does not answer (issue 45)', () => {
  it('the status says how long the server has been silent, and that Ctrl-C stops the turn', async () => {
    const { statuses, screen } = recordingScreen();
    const presenter = makePresenter(screen, 'lal');
    const quiet = watchQuietServer(screen, 'lal', { quietAfterMs: 40, checkEveryMs: 10 });
    const observe = (event: AgentEvent) => {
      presenter.observe(event);
      quiet.see(event);
    };
    observe({ kind: 'turn-start', title: '#3 from HOST' });
    observe({ kind: 'model-call', call: 1, estimatedTokens: 10, chars: 40 });
    await expect
      .poll(() => statuses.at(-1))
      .toMatch(/^lal is waiting: the model server is silent for \d+ s · Ctrl-C stops$/);
    // Its words end the wait.
    observe({ kind: 'model-text', call: 1, text: 'At last' });
    expect(statuses.at(-1)).toBe('lal is writing: At last');
    observe({ kind: 'model-reply', call: 1, usage: undefined, toolCalls: 0 });
    observe({
      kind: 'turn-end',
      title: '#3 from HOST',
      modelCalls: 1,
      stopReason: 'answered',
      usage: { inputTokens: 1, outputTokens: 1 },
    });
  });

  it('a server that answers at once is never said to wait', () => {
    const { statuses, screen } = recordingScreen();
    const quiet = watchQuietServer(screen, 'lal', { quietAfterMs: 0, checkEveryMs: 10 });
    quiet.see({ kind: 'model-call', call: 1, estimatedTokens: 10, chars: 40 });
    quiet.see({ kind: 'model-reply', call: 1, usage: undefined, toolCalls: 0 });
    expect(statuses.filter(text => text?.includes('is silent'))).toEqual([]);
  });
});

/** A presenter on a plain screen whose lines are kept in `printed`. */
const printingPresenter = () => {
  const { printed, screen } = recordingScreen(false);
  return { printed, presenter: makePresenter(screen, 'lal') };
};

describe('a failed tool call in the simulator', () => {
  it('shows a message number the daemon quoted as a bigint as #n', () => {
    const { printed, presenter } = printingPresenter();
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST' });
    presenter.observe({
      kind: 'tool-call',
      id: 'c1',
      name: 'dismiss',
      summary: '{"messageNumber":6}',
    });
    presenter.observe({
      kind: 'tool-result',
      id: 'c1',
      name: 'dismiss',
      ok: false,
      preview: 'No such message with number "[6n]"',
    });
    expect(printed).toContain('  → dismiss #6 ✗ No such message with number #6');
  });
});

describe('turns no message began, in the simulator', () => {
  it("a wake-up's turn and a helper's say what they are; a helper's turn over line names it", async () => {
    const { printed, presenter } = printingPresenter();
    const end = (title: string) =>
      presenter.observe({
        kind: 'turn-end',
        title,
        stopReason: 'done',
        modelCalls: 1,
        usage: { inputTokens: 10, outputTokens: 2 },
      });
    presenter.observe({ kind: 'turn-start', title: 'wake-up w1: "stretch"' });
    end('wake-up w1: "stretch"');
    presenter.observe({ kind: 'turn-start', title: 'helper h2: "sum the list"' });
    presenter.observe({ kind: 'turn-start', title: '#5 from HOST: "ping"' });
    end('helper h2: "sum the list"');
    end('#5 from HOST: "ping"');
    await vi.waitFor(() => expect(printed.length).toBeGreaterThanOrEqual(5));
    expect(printed).toEqual([
      '  ◦ wake-up w1 (a schedule came due): "stretch"',
      '  · turn over: 1 model call, 10 in / 2 out tokens',
      '  ◦ helper h2 at work on "sum the list"',
      "  · helper h2's turn over: 1 model call, 10 in / 2 out tokens",
      '  · turn over: 1 model call, 10 in / 2 out tokens',
    ]);
  });
});

describe("the agent's log in the state folder (behaviour 10.2)", () => {
  it('one file a run, the last five kept; LAL_LOG=off writes none', () => {
    const state = makeTempFolder('logs');
    const paths = [1, 2, 3, 4, 5, 6, 7].map(day => {
      const log = openAgentLog(state, {}, new Date(Date.UTC(2026, 0, day)));
      log.write('a line');
      log.close();
      return log.path;
    });
    expect(readdirSync(join(state, 'logs'))).toEqual(
      paths.slice(2).map(path => path!.slice(join(state, 'logs').length + 1)),
    );
    expect(readFileSync(paths[6]!, 'utf8')).toMatch(/ a line\n$/);
    const off = openAgentLog(makeTempFolder('off'), { LAL_LOG: 'off' });
    expect(off.path).toBeUndefined();
    expect(off.why).toBe('LAL_LOG=off');
  });
});

describe('.env', () => {
  it('parses KEY=VALUE lines with comments, export and quotes, and reports bad lines without their text', () => {
    const { values, problems } = parseDotEnv(
      '# c\nLAL_HOST=http://x:1/v1 # local\nexport LAL_MODEL="qwen 3"\nLAL_AUTH_TOKEN=\'a#b\'\nnot a line sk-secret\n\n',
    );
    expect(values).toEqual({
      LAL_HOST: 'http://x:1/v1',
      LAL_MODEL: 'qwen 3',
      LAL_AUTH_TOKEN: 'a#b',
    });
    expect(problems).toEqual(['line 5 is not KEY=VALUE']);
  });
  it('names the file and line of a quote left open (never closed, or closed only after swallowing settings)', () => {
    // Never closed: the value is read as written, quote included, and said; the next keys still read.
    const never = parseDotEnv('LAL_HOST=http://x:1/v1\nLAL_MODEL="qwen3\nLAL_PROVIDER=openai\n');
    expect(never.values).toEqual({
      LAL_HOST: 'http://x:1/v1',
      LAL_MODEL: '"qwen3',
      LAL_PROVIDER: 'openai',
    });
    expect(never.problems).toEqual([
      'line 2: the value of LAL_MODEL opens a " quote that no line after it closes, so it is read as written, quote included',
    ]);
    // The same rule whether or not the file ends with a newline (Node's parser drops the key without one).
    for (const text of [
      'LAL_MAX_MODEL_CALLS="5\n',
      'LAL_MAX_MODEL_CALLS="5',
      "LAL_MODEL='a b  \n",
    ]) {
      const { values, problems } = parseDotEnv(text);
      expect(Object.values(values)).toEqual([text.split('=')[1]!.trim()]);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /no line after it closes, so it is read as written, quote included$/,
      );
    }
    // Closed lines later: the settings between are read as part of the value, not as settings.
    const late = parseDotEnv("LAL_MODEL='qwen3\nLAL_HOST=http://x:1/v1\nLAL_PERSONA='fae'\n");
    expect(late.problems).toEqual([
      "line 1: the value of LAL_MODEL opens a ' quote that only line 3 closes, so lines 2–3 are read as part of it, not as settings (a quote left open?)",
    ]);
    // A quoted value that spans lines on purpose is no problem.
    expect(parseDotEnv('LAL_MODEL="two\nlines"\n').problems).toEqual([]);
    const folder = makeTempFolder('env');
    writeFileSync(join(folder, '.env'), 'LAL_MODEL="qwen3\n');
    expect(loadEnv(folder, {}).problems).toContain(
      `${join(folder, '.env')}: line 1: the value of LAL_MODEL opens a " quote that no line after it closes, so it is read as written, quote included`,
    );
  });
  it('says the text after a closing quote, which is not read, and reads `export  KEY` (two spaces) as KEY', () => {
    const { values, problems } = parseDotEnv(
      'LAL_MODEL="qwen3" sk-secret\nLAL_HOST="http://x:1/v1" # a comment\nexport  LAL_PERSONA=fae\n',
    );
    expect(values).toEqual({ LAL_MODEL: 'qwen3', LAL_HOST: 'http://x:1/v1', LAL_PERSONA: 'fae' });
    // Named by line and key, never by the text (it may be a secret).
    expect(problems).toEqual([
      "line 1: what follows the closing quote of LAL_MODEL's value is not read (only what is inside the quotes is; a # starts a comment)",
    ]);
    const folder = makeTempFolder('env');
    writeFileSync(join(folder, '.env'), "LAL_MODEL='qwen3' junk\n");
    expect(loadEnv(folder, {}).problems).toEqual([
      `${join(folder, '.env')}: line 1: what follows the closing quote of LAL_MODEL's value is not read (only what is inside the quotes is; a # starts a comment)`,
    ]);
  });
  it('lets the process env win over the file, and passes the caplet only set LAL_ variables', () => {
    const folder = makeTempFolder('env');
    writeFileSync(join(folder, '.env'), 'LAL_HOST=http://file:1\nLAL_MODEL=from-file\n');
    const { env, file } = loadEnv(folder, {
      LAL_HOST: 'http://shell:2',
      LAL_PROVIDER: '',
      HOME: '/h',
    });
    expect(file).toBe(join(folder, '.env'));
    expect(env).toMatchObject({ LAL_HOST: 'http://shell:2', LAL_MODEL: 'from-file' });
    expect(capletEnv(env)).toEqual({ LAL_HOST: 'http://shell:2', LAL_MODEL: 'from-file' });
    expect(loadEnv(join(folder, 'none'), {}).file).toBeUndefined();
  });
});

describe('typed lines', () => {
  it('mails plain lines and //-escaped ones', () => {
    expect(parseCommand('  hello  ')).toEqual({ kind: 'message', text: '  hello' });
    expect(parseCommand('//etc is a folder')).toEqual({
      kind: 'message',
      text: '/etc is a folder',
    });
    expect(parseCommand('   ')).toEqual({ kind: 'empty' });
  });

  it('mails the word itself for //exit and //quit, as their hint says (issue 45)', () => {
    expect(parseCommand('//exit')).toEqual({ kind: 'message', text: 'exit' });
    expect(parseCommand(' //QUIT ')).toEqual({ kind: 'message', text: 'QUIT' });
    // Only the word alone: any other line after // keeps its "/".
    expect(parseCommand('//exit now')).toEqual({ kind: 'message', text: '/exit now' });
    expect(parseCommand('//help')).toEqual({ kind: 'message', text: '/help' });
  });
  it('reads the commands, with bigint message numbers and optional proposal numbers', () => {
    expect(parseCommand('/grant 4')).toEqual({ kind: 'grant', number: 4n });
    expect(parseCommand('/grant')).toEqual({ kind: 'grant', number: undefined });
    expect(parseCommand('/reject 4 too risky')).toEqual({
      kind: 'reject',
      number: 4n,
      reason: 'too risky',
    });
    expect(parseCommand('/reject not now')).toEqual({
      kind: 'reject',
      number: undefined,
      reason: 'not now',
    });
    expect(parseCommand('/counter 4 6 * 6')).toEqual({
      kind: 'counter',
      number: 4n,
      source: '6 * 6',
    });
    expect(parseCommand('/attach readFile ./docs')).toEqual({
      kind: 'attach',
      tool: 'readFile',
      folder: './docs',
    });
    expect(parseCommand('/dismiss all')).toEqual({ kind: 'dismiss', number: 'all' });
    expect(parseCommand('/schedules')).toEqual({
      kind: 'schedules',
      action: 'list',
      id: undefined,
    });
    expect(parseCommand('/schedules pause w2')).toEqual({
      kind: 'schedules',
      action: 'pause',
      id: 'w2',
    });
    expect(parseCommand('/schedules snooze w2')).toEqual({
      kind: 'error',
      error: 'Usage: /schedules [pause|resume|revoke <id>]',
    });
    expect(parseCommand('/helpers')).toEqual({ kind: 'helpers', action: 'list', id: undefined });
    expect(parseCommand('/helpers cancel h2')).toEqual({
      kind: 'helpers',
      action: 'cancel',
      id: 'h2',
    });
    expect(parseCommand('/helpers cancel')).toEqual({
      kind: 'error',
      error: 'Usage: /helpers [cancel <id>]',
    });
    expect(parseCommand('/QUIT')).toEqual({ kind: 'quit' });
  });
  it('says how to use a command given wrongly', () => {
    expect(parseCommand('/grant four')).toMatchObject({ kind: 'error' });
    expect(parseCommand('/counter 4')).toEqual({
      kind: 'error',
      error: 'Usage: /counter <n> <source>',
    });
    expect(parseCommand('/attach')).toMatchObject({ kind: 'error' });
    expect(parseCommand('/frobnicate')).toMatchObject({
      kind: 'error',
      error: expect.stringContaining('Unknown command /frobnicate'),
    });
  });
});

describe('the chat markup on a terminal', () => {
  it('styles *bold*, /italic/, _underline_ and ~strike~', () => {
    expect(renderQuasiMarkdown('a *b* /c/ _d_ ~e~.')).toBe(
      'a \x1b[1mb\x1b[22m \x1b[3mc\x1b[23m \x1b[4md\x1b[24m \x1b[9me\x1b[29m.',
    );
  });
  it('leaves paths, globs, snake_case and arithmetic alone, and strips control characters', () => {
    for (const text of [
      'see /tmp/x and /usr/lib/',
      'run *.ts files',
      'snake_case_name',
      '2 * 3 * 4',
      'a/b/c',
    ]) {
      expect(renderQuasiMarkdown(text)).toBe(text);
    }
    expect(renderQuasiMarkdown('bad \x1b[2Jclear\x07')).toBe('bad [2Jclear');
  });
});

describe('tool-call lines', () => {
  it('shows reply, send and evaluate the way a person reads them', () => {
    expect(describeToolCall('reply', '{"messageNumber":"+3","strings":["pong"]}')).toBe(
      'reply #3 "pong"',
    );
    expect(describeToolCall('send', '{"recipient":"HOST","strings":["a","b"]}')).toBe(
      'send HOST "ab"',
    );
    expect(describeToolCall('evaluate', '{"source":"6 * 7","resultName":"answer"}')).toBe(
      'evaluate 6 * 7 → answer',
    );
    expect(describeToolCall('list', '{}')).toBe('list');
    expect(describeToolCall('lookup', '{"petNamePath":["a","b"]}')).toBe(
      'lookup petNamePath=["a","b"]',
    );
    expect(describeToolCall('reply', '{"messageNumber":1,"strin…')).toBe(
      'reply {"messageNumber":1,"strin…',
    );
  });

  it('shows a long reply the agent cut by its words, not as cut JSON', () => {
    // Its words as they read: no JSON escape, and one ellipsis where the agent cut them (trial 13 M5).
    expect(
      describeToolCall('reply', '{"messageNumber":1,"strings":["Hello! I am the \\"double\\"…'),
    ).toBe('reply #1 "Hello! I am the "double"…"');
    expect(
      describeToolCall('reply', '{"messageNumber":"+12","strings":["You said \\"https:…'),
    ).toBe('reply #12 "You said "https:…"');
    expect(describeToolCall('send', '{"recipient":"HOST","strings":["a long line, cut\\')).toBe(
      'send HOST "a long line, cut…"',
    );
  });

  it('cuts a long text to what fits the line, its closing quote kept, one ellipsis, lines as spaces', () => {
    const words = `first line\\nsecond \\"line\\" ${'word '.repeat(30)}`;
    const line = describeToolCall('reply', `{"messageNumber":"+3","strings":["${words}"]}`);
    expect(line).toMatch(/^reply #3 "first line second "line" word word [ a-z]*…"$/);
    expect(line).toHaveLength(80);
    expect(line.match(/…/g)).toHaveLength(1);
    const sent = describeToolCall('send', `{"recipient":"HOST","strings":["${'a '.repeat(60)}"]}`);
    expect(sent).toMatch(/^send HOST "(a )+a?…"$/);
    expect(sent.length).toBeLessThanOrEqual(80);
  });
});

describe("README's command list", () => {
  it('names every command /help lists', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const list = readme.slice(readme.indexOf('Commands: '), readme.indexOf('## What it mends'));
    const commands = [...COMMAND_HELP.matchAll(/^ {2}(\/[a-z]+)/gm)].map(found => found[1]!);
    expect(commands.length).toBeGreaterThan(10);
    for (const command of commands.filter(each => each !== '//'))
      expect(list, command).toMatch(new RegExp(`\`${command}[\` ]`));
  });
});

describe('/memory', () => {
  it('says which of the recent turns it lists', async () => {
    const turns = Array.from({ length: 8 }, (_, index) => ({ title: `#${index} from HOST` }));
    const memory = JSON.stringify({ conversation: { turns, digest: [] } });
    const lines = await describeKept({
      has: (...path: string[]) => path.join('/') === 'agent-state/memory',
      lookup: () => memory,
      list: () => [],
    });
    expect(lines[0]).toBe(
      'the conversation: 8 recent turns (the last 5 below) and 0 digest lines of older ones',
    );
    expect(lines.slice(1, 6)).toEqual([3, 4, 5, 6, 7].map(index => `  · #${index} from HOST`));
  });

  // Trial 13 M4: "0 messages handled" after five answered turns. The memory keeps the keys of
  // answered messages still in the inbox only (src/memory/handled-keys.ts): the line says that.
  it('says what its count of answered messages is: those still in the inbox, kept so none is answered twice', async () => {
    const said = async (handled: string[]) =>
      (
        await describeKept({
          has: (...path: string[]) => path.join('/') === 'agent-state/memory',
          lookup: () => JSON.stringify({ conversation: { turns: [], digest: [] }, handled }),
          list: () => [],
        })
      )[1];
    expect(await said([])).toBe(
      'no answered message is still in the inbox (answered ones are dismissed, so none is answered twice)',
    );
    expect(await said(['k1', 'k2'])).toBe(
      '2 answered messages still in the inbox, remembered so that none is answered twice',
    );
    expect(await said(['k1'])).toBe(
      '1 answered message still in the inbox, remembered so that none is answered twice',
    );
  });

  it('is one list: a bullet for each part, the turns under theirs with no bullet of their own', () => {
    expect(
      keptListing('lal', [
        'the conversation: 1 recent turn',
        '  · #1 from HOST: "hi"',
        '1 message handled',
      ]),
    ).toBe(
      'What lal keeps:\n- the conversation: 1 recent turn\n  · #1 from HOST: "hi"\n- 1 message handled',
    );
  });

  it('counts the searchable history: the full chunks in agent-history/ and the open one the memory carries', async () => {
    const exchange = { in: 'Message #1 from HOST: ping', out: 'replied "pong"' };
    const memory = JSON.stringify({
      version: 11,
      conversation: { turns: [], digest: [] },
      openChunk: { seq: 3, exchanges: [exchange, exchange] },
    });
    const kept = (chunks: string[]) =>
      describeKept({
        has: (...path: string[]) => path.join('/') === 'agent-state/memory' || chunks.length > 0,
        lookup: () => memory,
        list: () => chunks,
      });
    expect((await kept(['c1-8200', 'c2-8300'])).at(-1)).toBe(
      'the searchable history: 2 full chunks (agent-history/) and 2 exchanges in the open one (kept with the memory)',
    );
    // Before the first chunk fills there is no directory: the history is all in the memory.
    expect((await kept([])).at(-1)).toBe(
      'the searchable history: 0 full chunks (agent-history/) and 2 exchanges in the open one (kept with the memory)',
    );
  });
});

describe('preflight', () => {
  let server: ModelServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('passes an answering Ollama, and stops on a model it does not have, naming those it has', async () => {
    server = await startModelServer({
      protocol: 'ollama',
      reply: () => ({ text: '' }),
      models: ['qwen3:latest'],
    });
    expect(await checkModelServer({ LAL_HOST: server.url })).toMatchObject({
      ok: true,
      config: { kind: 'ollama', model: 'qwen3' },
    });
    const missing = await checkModelServer({ LAL_HOST: server.url, LAL_MODEL: 'llama9' });
    expect(missing).toEqual({
      ok: false,
      line: `${server.url} does not serve the model "llama9" that LAL_MODEL names; it has qwen3:latest — run \`ollama pull llama9\` or set LAL_MODEL to it.`,
    });
    expect(server.requests.map(request => request.path)).toContain('/api/tags');
  });

  it('names LAL_AUTH_TOKEN (never its value) when an OpenAI-style server refuses the key', async () => {
    server = await startModelServer({
      protocol: 'openai',
      reply: () => ({ text: '' }),
      apiKey: 'right-key-123',
    });
    const refused = await checkModelServer({
      LAL_HOST: server.url,
      LAL_AUTH_TOKEN: 'wrong-key-456',
    });
    expect(refused).toMatchObject({ ok: false, line: expect.stringContaining('LAL_AUTH_TOKEN') });
    expect(JSON.stringify(refused)).not.toContain('wrong-key-456');
    expect(
      await checkModelServer({ LAL_HOST: server.url, LAL_AUTH_TOKEN: 'right-key-123' }),
    ).toMatchObject({ ok: true });
    expect(server.requests.map(request => request.path)).toContain('/v1/models');
  });

  it('LAL_PROVIDER=anthropic without a key, at an OpenAI-compatible server: says in one run that it is not Anthropic', async () => {
    server = await startModelServer({ protocol: 'openai', reply: () => ({ text: '' }) });
    const host = server.url.replace(/\/v1$/, '');
    const said = await checkModelServer({ LAL_HOST: host, LAL_PROVIDER: 'anthropic' });
    expect(said).toEqual({
      ok: false,
      line: `${host} is not Anthropic's API (its model list is an OpenAI-compatible one) — set LAL_PROVIDER=openai and LAL_HOST to ${host}/v1.`,
    });
    // At Anthropic's API itself (it refuses the placeholder), the key is what is missing.
    await server.close();
    server = await startModelServer({
      protocol: 'anthropic',
      reply: () => ({ text: '' }),
      apiKey: 'right-key-123',
    });
    const anthropic = await checkModelServer({ LAL_HOST: server.url, LAL_PROVIDER: 'anthropic' });
    expect(anthropic).toMatchObject({
      ok: false,
      line: expect.stringMatching(/^LAL_AUTH_TOKEN is required for Anthropic/),
    });
  });

  it('nothing set and nothing at the default address: names --demo beside starting Ollama', async () => {
    const refused = (() =>
      Promise.reject(
        Object.assign(new TypeError('fetch failed'), {
          cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), {
            code: 'ECONNREFUSED',
          }),
        }),
      )) as unknown as typeof fetch;
    const said = await checkModelServer({}, refused);
    expect(said).toEqual({
      ok: false,
      line: expect.stringMatching(
        /^Nothing answers at http:\/\/localhost:11434 .*start Ollama.* Or try it without a model: npm start -- --demo$/,
      ),
    });
    // With LAL_HOST set, the person has a server in mind: no word of the double.
    const named = await checkModelServer({ LAL_HOST: 'http://127.0.0.1:9' }, refused);
    expect(named).toMatchObject({ ok: false, line: expect.not.stringContaining('--demo') });
  });

  it('turns a configuration error into one line', async () => {
    expect(await checkModelServer({ LAL_HOST: 'localhost:11434' })).toEqual({
      ok: false,
      line: 'LAL_HOST must be an http:// or https:// address; got "localhost:11434" (did you mean "http://localhost:11434"?); see docs/configuration.md.',
    });
    // Another scheme is no missing one: no guess.
    expect(await checkModelServer({ LAL_HOST: 'ftp://localhost:11434' })).toEqual({
      ok: false,
      line: 'LAL_HOST must be an http:// or https:// address; got "ftp://localhost:11434"; see docs/configuration.md.',
    });
  });
});

describe('the console during a chat', () => {
  it('drops marshal\'s "Temporary logging of sent error" reports and keeps the rest', () => {
    const seen: unknown[][] = [];
    const original = globalThis.console;
    const recorder = Object.create(original, {
      log: { value: (...args: unknown[]) => seen.push(args) },
    }) as Console;
    globalThis.console = recorder;
    const restore = quietConsole();
    try {
      console.log('Temporary logging of sent error', Error('boom'));
      console.log('kept', 1);
    } finally {
      restore();
      globalThis.console = original;
    }
    expect(seen).toEqual([['kept', 1]]);
  });
});

describe('.env that is there but cannot be read', () => {
  it('a folder, or a link to nothing, is said in one line; no .env at all is no problem', () => {
    const folder = makeTempFolder('env-folder');
    mkdirSync(join(folder, '.env'));
    expect(loadEnv(folder, {}).unreadable).toBe(
      `${join(folder, '.env')} could not be read: it is a folder, not a file`,
    );
    const linked = makeTempFolder('env-link');
    symlinkSync(join(linked, 'gone'), join(linked, '.env'));
    expect(loadEnv(linked, {}).unreadable).toBe(
      `${join(linked, '.env')} could not be read: it is a link to a file that does not exist`,
    );
    expect(loadEnv(makeTempFolder('env-none'), {}).unreadable).toBeUndefined();
  });

  // Root reads any file, so the permission is checked only as another user (as CI runs).
  it.skipIf(process.getuid?.() === 0)(
    'one without read permission (runs only as a user other than root: root reads any file)',
    () => {
      const folder = makeTempFolder('env-mode');
      writeFileSync(join(folder, '.env'), 'LAL_MODEL=x\n', { mode: 0o000 });
      expect(loadEnv(folder, {}).unreadable).toBe(
        `${join(folder, '.env')} could not be read: permission denied (chmod u+r ${join(folder, '.env')})`,
      );
    },
  );

  it("says when quotes keep a ~ from being the home folder, and reads Node's .env format", () => {
    const { values, problems } = parseDotEnv(
      'LAL_AUTH_TOKEN_FILE="~/key"\nLAL_MODEL="two\nlines"\nLAL_HOST=http://x:1/v1\n',
      '/home/ada',
    );
    expect(values).toEqual({
      LAL_AUTH_TOKEN_FILE: '~/key',
      LAL_MODEL: 'two\nlines',
      LAL_HOST: 'http://x:1/v1',
    });
    expect(problems).toEqual([
      "LAL_AUTH_TOKEN_FILE's ~ is not the home folder: quotes stop its expansion, as in a shell; write it unquoted or as $HOME",
    ]);
  });
});
