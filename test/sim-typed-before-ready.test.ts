/**
 * `npm start` on a terminal, lines typed before the agent is ready (issue 45): what is typed
 * before its greeting of this run is held, the prompt saying the agent is starting, and done in
 * the order typed once it is ready, each once the agent is idle, as piped input is
 * (docs/behaviour.md 10.2). Before, a command ran at once while a message waited in the agent's
 * inbox, so `/help` typed after a message came out before the greeting and the answer.
 */
import { describe, expect, it } from 'vitest';
import { runSimOnTty, type TtyStep } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenLines } from './support/terminal-screen.js';
import { useRawServer } from './support/raw-http-server.js';
import { makeSimRunner } from './support/run-sim.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);
const { serve } = useRawServer();

const COLUMNS = 80;
/** How long the model server takes to list its models: the agent greets only after that. */
const SLOW_LIST_MS = 1_500;
const ANSWER = 'Noted, and answered.';

/**
 * An OpenAI-compatible server slow to list its one model (npm start's check first, then the
 * agent's: `agentListMs` for the agent's), whose every chat answer is whole (not streamed).
 */
const slowServer = (agentListMs: number, firstList?: () => void) => {
  let lists = 0;
  return serve((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.method === 'GET' && /\/models$/.test(request.url ?? '')) {
      lists += 1;
      if (lists === 1) firstList?.();
      setTimeout(
        () => {
          response.end(
            JSON.stringify({ object: 'list', data: [{ id: 'slow-a', object: 'model' }] }),
          );
        },
        lists === 1 ? SLOW_LIST_MS : agentListMs,
      );
      return;
    }
    response.end(
      JSON.stringify({
        ...{ id: 'c', object: 'chat.completion', created: 0, model: 'slow-a' },
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: ANSWER },
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
      }),
    );
  });
};

const onTerminal = async (
  steps: readonly TtyStep[],
  agentListMs = SLOW_LIST_MS,
  /** Typed while npm start checks the model server: before it has printed anything. */
  duringCheck?: string,
) => {
  let checking = () => {};
  const checked = new Promise<void>(resolve => (checking = resolve));
  const url = await slowServer(agentListMs, checking);
  const output = await runSimOnTty(
    [],
    {
      ...{ LAL_HOST: `${url}/v1`, XDG_STATE_HOME: makeTempFolder('state') },
      TMPDIR: makeTempFolder('tmp'),
    },
    steps,
    makeTempFolder('cwd'),
    { columns: COLUMNS, rows: 30 },
    duringCheck === undefined ? undefined : { when: checked, keys: duringCheck },
  );
  return { output, lines: await screenLines(output, COLUMNS) };
};

/** Where each of these shows first on the screen: -1 for one not shown. */
const placesOf = <Name extends string>(
  lines: readonly string[],
  patterns: Record<Name, RegExp>,
): Record<Name, number> =>
  Object.fromEntries(
    Object.entries<RegExp>(patterns).map(([name, pattern]) => [
      name,
      lines.findIndex(line => pattern.test(line)),
    ]),
  ) as Record<Name, number>;

const GREETING = /^#\d+ lal › Lal agent ready\./;
/** Shown as it goes as the prompt shows a line typed at an idle one (issue 45, trial 11: not `you › …`). */
const SENT = /^› hello there$/;
/** The one line every way out says (sim/chat/state-folder.ts's farewellLine). */
const LEFT = /^Left\. lal's conversation and tools are kept in \S+\/lal\.$/;
const ANSWERED = /^#\d+ lal › Noted, and answered\.$/;
const HELP = /^Type a line to mail it to the agent\. Commands:$/;

describe('lines typed on a terminal before the agent is ready', () => {
  it('wait for its greeting, then go in the order typed: a message, then /help after its answer', async () => {
    const { output, lines } = await onTerminal([
      // At the first line the chat is still starting: the agent has not greeted yet.
      { after: /lal-fae simulator: /, keys: 'hello there\r/help\r' },
      { after: /\/\/text/, keys: '/quit\r' },
    ]);
    const { greeting, sent, answered, help } = placesOf(lines, {
      greeting: GREETING,
      sent: SENT,
      answered: ANSWERED,
      help: HELP,
    });
    expect(greeting).toBeGreaterThan(-1);
    expect(sent).toBeGreaterThan(greeting);
    expect(answered).toBeGreaterThan(sent);
    expect(help).toBeGreaterThan(answered);
    expect(output).toContain('lal is starting…');
  });

  it('typed at the prompt while it says the agent is starting: shown as waiting, then done in order', async () => {
    const { lines } = await onTerminal([
      { after: /lal is starting…/, keys: '/help\r' },
      { after: /waits › \/help/, keys: 'hello there\r' },
      { after: /Noted, and answered\.[^]*turn over/, keys: '/quit\r' },
    ]);
    const { waiting, greeting, help, sent, answered } = placesOf(lines, {
      waiting: /^waits › \/help \(lal is starting/,
      greeting: GREETING,
      help: /^› \/help$/,
      sent: SENT,
      answered: ANSWERED,
    });
    expect(waiting).toBeGreaterThan(-1);
    expect(greeting).toBeGreaterThan(waiting);
    expect(help).toBeGreaterThan(greeting);
    expect(lines.findIndex(line => HELP.test(line))).toBeGreaterThan(help);
    expect(sent).toBeGreaterThan(help);
    expect(answered).toBeGreaterThan(sent);
  });

  it('show once each: no row of the terminal echoing them before the prompt existed', async () => {
    const { lines } = await onTerminal(
      [{ after: /Noted, and answered\.[^]*turn over/, keys: '/quit\r' }],
      SLOW_LIST_MS,
      // Typed before anything is drawn: the terminal itself would echo it on a row of its own.
      'hello there\r',
    );
    expect(
      lines.filter(line => line.includes('hello there')),
      lines.join('\n'),
    ).toEqual(['waits › hello there (lal is starting; it goes once it is ready)', '› hello there']);
  });

  it('Ctrl-C before anything is drawn still ends the run at once (the keys held are no lost Ctrl-C), saying it left', async () => {
    const { output, lines } = await onTerminal([], SLOW_LIST_MS, '\x03');
    expect(output).not.toMatch(/lal-fae simulator: /);
    // As every way out says (issue 45, trial 11: it left silently, with exit code 130).
    const shown = lines.filter(line => line.trim() !== '');
    // Wrapped at words to the terminal's 80 columns: its rows joined again.
    const left = shown.findLastIndex(line => line.startsWith('Left. '));
    expect(left, lines.join('\n')).toBeGreaterThan(-1);
    expect(shown.slice(left).join(' ')).toMatch(LEFT);
  });

  it.each([
    ['while npm start checks the model server', undefined],
    ['while the agent starts, after the first lines', /lal-fae simulator: /],
  ])(
    'a Ctrl-C (SIGINT) %s leaves as every way out does: its one line, exit code 0',
    async (_when, after) => {
      let checking = () => {};
      const checked = new Promise<void>(resolve => (checking = resolve));
      const url = await slowServer(6_000, checking);
      const run = await runSim([], { LAL_HOST: `${url}/v1` }, input => {
        void (after === undefined ? checked : input.waitFor(after)).then(() =>
          input.signal('SIGINT'),
        );
      });
      const printed = run.stdout.trimEnd().split('\n');
      expect(printed.at(-1), run.stdout).toMatch(LEFT);
      expect(run.code).toBe(0);
      expect(run.stdout).not.toMatch(GREETING);
    },
  );

  it('are dropped, and said to be, when the person leaves before then', async () => {
    const { lines } = await onTerminal(
      [
        { after: /lal-fae simulator: /, keys: 'hello there\r' },
        { after: /waits › hello there/, keys: '\x03' },
        { after: /leaves\)/, keys: '\x03' },
      ],
      // Long enough that it never greets before the person has left.
      6_000,
    );
    expect(lines).toContain('dropped, as you left before lal took it up: "hello there"');
    expect(lines.some(line => GREETING.test(line) || SENT.test(line))).toBe(false);
  });
});
