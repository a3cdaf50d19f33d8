/**
 * A command typed while a turn runs, then Ctrl-C (docs/behaviour.md 10.2; issue 45, trial 15):
 * Ctrl-C stops the turn, not the person's commands. `/forget` and `/schedules` are the
 * controller's work done between turns (src/run-agent.ts `makeBetweenTurns`), which a stop
 * cancelled with the agent: the command runs once the agent goes on, as a message typed then
 * goes to it; a second press leaves before it ran, and names it dropped with the messages.
 */
import { describe, expect, it } from 'vitest';
import type { NormalizedRequest, ScriptedReply } from '../sim/model-server/index.js';
import { lastUserText, startScriptedDouble, useModelServers } from './support/model-servers.js';
import { printedLines, runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const startServer = useModelServers();

/** The first line's turn never ends by itself (only Ctrl-C ends it); any other is answered at once. */
const script = (request: NormalizedRequest): ScriptedReply =>
  lastUserText(request).includes('the long one') ? { hang: true } : { text: 'pong' };

const start = () => startScriptedDouble(startServer, makeTempFolder, script);

/** Up to the first Ctrl-C: a turn whose model call hangs, `typed` entered while it runs. */
const stopWith = (askedAbout: (text: string) => number, typed: string, echo: RegExp) => [
  { after: /agent ready/, keys: 'please do the long one\r' },
  {
    after: /is thinking/,
    keys: typed,
    before: () => expect.poll(() => askedAbout('the long one')).toBe(1),
  },
  { after: echo, keys: '\x03' },
];

describe('a command typed while a turn runs, then Ctrl-C once', () => {
  it.each([
    ['/forget', /› \/forget/, 'lal has forgotten the conversation.'],
    ['/schedules', /› \/schedules/, 'No schedules.'],
  ])('%s runs once the agent goes on, never cut off', async (command, echo, said) => {
    const { env, askedAbout } = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        ...stopWith(askedAbout, `${command}\r`, echo),
        { after: new RegExp(said.replace('.', '\\.')), keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
    );
    const lines = printedLines(output);
    expect(output).not.toMatch(/stopped before it could|has stopped/);
    // Done after the stop: on the agent made again, once the stop said it is over.
    const stopped = lines.findIndex(line => line.startsWith('lal stopped'));
    expect(stopped, lines.join('\n')).toBeGreaterThan(-1);
    expect(lines.indexOf(said)).toBeGreaterThan(stopped);
    expect(lines.filter(line => line === said)).toHaveLength(1);
  });
});

describe('a command typed while a turn runs, then Ctrl-C twice', () => {
  it('names the command dropped with the message typed, neither having run', async () => {
    const { env, askedAbout } = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        ...stopWith(askedAbout, 'ping-6620\r/forget\r', /› \/forget/),
        { after: /lal stopped/, keys: '\x03' },
      ],
      makeTempFolder('cwd'),
    );
    const lines = printedLines(output);
    expect(lines, lines.join('\n')).toContain(
      'dropped, as you left before lal took it up: "ping-6620", "/forget"',
    );
    expect(output).not.toContain('has forgotten the conversation');
    expect(askedAbout('ping-6620')).toBe(0);
  });
});
