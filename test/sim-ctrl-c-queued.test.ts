/**
 * Ctrl-C on a terminal with a line queued behind the turn (docs/behaviour.md 10.2): the first
 * press stops the turn, and the agent goes on only once the leave window is over, so a second
 * press within it leaves before the queued line reaches the model, and says the line was dropped
 * (it is not answered in a later run either); with no second press, the line waited for is named
 * and answered once the window is over. A press with a half-typed line only discards it.
 */
import { describe, expect, it } from 'vitest';
import type { NormalizedRequest, ScriptedReply } from '../sim/model-server/index.js';
import { lastUserText, startScriptedDouble, useModelServers } from './support/model-servers.js';
import { printedLines, runSimOnTty } from './support/run-sim-tty.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);
const startServer = useModelServers();

/** The first line's turn never ends by itself (only Ctrl-C ends it); any other is answered at once. */
const script = (request: NormalizedRequest): ScriptedReply => {
  const told = lastUserText(request);
  if (told.includes('the long one')) return { hang: true };
  if (told.includes('queued-line-7731')) return { text: 'answer to the queued line' };
  return { text: 'pong' };
};

const start = () => startScriptedDouble(startServer, makeTempFolder, script);

/**
 * Up to the first Ctrl-C: a turn whose model call hangs, a line typed behind it (in the agent's
 * inbox once /status, typed after it, answers).
 */
const stopWithALineQueued = (askedAbout: (text: string) => number) => [
  { after: /agent ready/, keys: 'please do the long one\r' },
  {
    after: /is thinking/,
    keys: 'queued-line-7731\r/status\r',
    before: () => expect.poll(() => askedAbout('the long one')).toBe(1),
  },
  { after: /Always allowed/, keys: '\x03' },
];

describe('Ctrl-C twice with a line queued behind the turn', () => {
  it('leaves before the queued line reaches the model, and says it was dropped', async () => {
    const { env, askedAbout } = await start();
    const output = await runSimOnTty(
      [],
      env,
      [...stopWithALineQueued(askedAbout), { after: /lal stopped/, keys: '\x03' }],
      makeTempFolder('cwd'),
    );
    expect(output).toMatch(/Stopping lal's turn/);
    expect(askedAbout('the long one')).toBe(1);
    expect(askedAbout('queued-line-7731')).toBe(0);
    expect(output).toMatch(/dropped[^\n]*"queued-line-7731"/);
    // Dropped, not kept for later: the next run on the same state folder does not answer it.
    const again = await runSim([], env, input => {
      input.write('ping\n');
      input.end();
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/lal › pong/);
    expect(askedAbout('queued-line-7731')).toBe(0);
  });
});

describe('Ctrl-C once with a line queued behind the turn', () => {
  it('names the line held, shows it as sent once the leave window is over, and answers it', async () => {
    const { env, askedAbout } = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        ...stopWithALineQueued(askedAbout),
        { after: /lal stopped/, keys: '' },
        { after: /answer to the queued line/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
    );
    // Shown as waiting as soon as it is typed (not only once the turn is over: issue 45), named
    // as waiting by the stop, shown as sent only once it goes to the agent, then answered.
    const lines = printedLines(output);
    const typed = lines.indexOf('waits › queued-line-7731 (goes to lal once its turn is over)');
    expect(typed, lines.join('\n')).toBeGreaterThan(-1);
    expect(typed).toBeLessThan(lines.findIndex(line => line.startsWith("Stopping lal's turn")));
    const waits = lines.findIndex(line => /waits[^\n]*"queued-line-7731"/.test(line));
    const sent = lines.indexOf('you › queued-line-7731');
    expect(waits, lines.join('\n')).toBeGreaterThan(-1);
    expect(sent).toBeGreaterThan(waits);
    expect(lines.findIndex(line => line.includes('answer to the queued line'))).toBeGreaterThan(
      sent,
    );
    expect(askedAbout('queued-line-7731')).toBe(1);
  });
});

/** The printed line just before the one that says what was dropped (-1: none says so). */
const lineBeforeDropped = (lines: readonly string[]): string | undefined => {
  const at = lines.findIndex(line => line.startsWith('dropped, as you left'));
  return at < 1 ? undefined : lines[at - 1];
};

describe('a line that waits while Ctrl-C holds the agent', () => {
  it('typed while the turn ran: shown as waiting, never as sent, and the dropped line right after it', async () => {
    const { env, askedAbout } = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        ...stopWithALineQueued(askedAbout),
        // At a person's pace: the second press once the stop has said all it says.
        { after: /lal stopped[\s\S]*turn over|turn over[\s\S]*lal stopped/, keys: '\x03' },
      ],
      makeTempFolder('cwd'),
    );
    const lines = printedLines(output);
    expect(
      lines.filter(line => line.includes('queued-line-7731')),
      output,
    ).not.toContainEqual(expect.stringMatching(/^you › /));
    expect(lineBeforeDropped(lines), lines.join('\n')).toMatch(/waits[^\n]*"queued-line-7731"/);
    expect(askedAbout('queued-line-7731')).toBe(0);
  });

  it('typed once the turn was stopped: its echo becomes a waiting line, and the dropped line follows it', async () => {
    const { env, askedAbout } = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        { after: /agent ready/, keys: 'please do the long one\r' },
        {
          after: /is thinking/,
          keys: '\x03',
          before: () => expect.poll(() => askedAbout('the long one')).toBe(1),
        },
        { after: /lal stopped/, keys: 'what-next-5521\r' },
        { after: /what-next-5521[\s\S]*what-next-5521/, keys: '\x03' },
      ],
      makeTempFolder('cwd'),
    );
    const lines = printedLines(output);
    expect(lineBeforeDropped(lines), lines.join('\n')).toMatch(/^waits › what-next-5521 /);
    // The last words before the one line that says it left.
    expect(lines.at(-2)).toMatch(/^dropped, as you left before lal took it up: "what-next-5521"$/);
    expect(lines.at(-1)).toMatch(/^Left\. lal's conversation and tools are kept in /);
    expect(askedAbout('what-next-5521')).toBe(0);
  });
});

describe('Ctrl-C with a half-typed line while a turn runs (issue 45)', () => {
  it('only discards the line, saying so; the next press stops the turn and does not leave', async () => {
    const { env, askedAbout } = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        { after: /agent ready/, keys: 'please do the long one\r' },
        {
          after: /is thinking/,
          keys: 'half-typed-4410',
          before: () => expect.poll(() => askedAbout('the long one')).toBe(1),
        },
        { after: /half-typed-4410/, keys: '\x03' },
        // Within the leave window of the first press: a first press all the same.
        { after: /half-typed line is discarded/, keys: '\x03' },
        { after: /lal stopped/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
    );
    const lines = printedLines(output);
    const discarded = lines.indexOf(
      "(the half-typed line is discarded; Ctrl-C again stops lal's turn)",
    );
    expect(discarded, lines.join('\n')).toBeGreaterThan(-1);
    expect(lines.findIndex(line => line.startsWith("Stopping lal's turn"))).toBeGreaterThan(
      discarded,
    );
    expect(output).not.toContain('dropped, as you left');
    expect(askedAbout('half-typed-4410')).toBe(0);
  });
});

describe('a line piped behind a turn when the run is interrupted (SIGINT)', () => {
  it('is never shown as sent, and is said dropped', async () => {
    const { env, askedAbout } = await start();
    const run = await runSim([], env, input => {
      input.write('please do the long one\nqueued-line-7731\n');
      void input
        .waitFor(/lal is thinking/)
        .then(() => expect.poll(() => askedAbout('the long one')).toBe(1))
        .then(() => input.signal('SIGINT'));
    });
    expect(run.stdout).not.toMatch(/you › queued-line-7731/);
    expect(run.stdout).toMatch(/^dropped, as you left before lal took it up: "queued-line-7731"$/m);
    expect(askedAbout('queued-line-7731')).toBe(0);
  });
});
