/**
 * Control characters from the model never reach the person's terminal raw (issue 45, trial 15):
 * a tool call's arguments and its result, an ESC that would restyle or hide the screen's text, a
 * BEL, a backspace or a carriage return among them, are cleaned on the `→` tool line as they are
 * on the agent's (`lal ›`) line. The screen cleans whatever it prints (sim/chat/screen.ts), so no
 * caller can forget to.
 */
import { describe, expect, it } from 'vitest';
import type { NormalizedRequest, ScriptedReply } from '../sim/model-server/index.js';
import { makePlainScreen, makeTtyScreen } from '../sim/chat/screen.js';
import { fakeTtyOutput } from './support/fake-tty-output.js';
import { doubleEnv, lastUserText, useModelServers } from './support/model-servers.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);
const startServer = useModelServers();

/** Text that would paint red, ring, step back and return to the row's start, were it written raw. */
const HOSTILE = 'ab\x1b[31mred\x1b[0m\x07bell\x08\rCR';

/**
 * The model: asked to "go", calls a tool whose name and arguments carry HOSTILE (there is none: it
 * fails, its error naming it), then replies with HOSTILE, then says it is done.
 */
const model = () => {
  let step = 0;
  let asked = 0;
  return (request: NormalizedRequest): ScriptedReply => {
    const go = /#(\d+)[^\n]*go/.exec(lastUserText(request));
    if (go !== null && step === 0) asked = Number(go[1]);
    if (asked === 0) return { text: 'ok' };
    step += 1;
    if (step === 1)
      return {
        toolCalls: [{ name: 'send', arguments: { recipient: HOSTILE, strings: [HOSTILE] } }],
      };
    if (step === 2)
      return {
        toolCalls: [{ name: 'reply', arguments: { messageNumber: asked, strings: [HOSTILE] } }],
      };
    return { text: 'done' };
  };
};

describe('a tool line from the model, piped', () => {
  it('has no control character of it: its arguments and result are cleaned', async () => {
    const server = await startServer({ protocol: 'openai', reply: model() });
    const run = await runSim(['--persona', 'fae'], doubleEnv(server.url, makeTempFolder), input => {
      input.write('go\n');
      void input.waitFor(/turn over/).then(() => input.end());
    });
    const toolLines = run.stdout.split('\n').filter(line => line.startsWith('  → '));
    // The failed send (its recipient and text) and the reply, each with the words left readable.
    expect(toolLines).toHaveLength(2);
    for (const line of toolLines) expect(line).toContain('ab[31mred[0mbell');
    // Piped, nothing is styled: no control character at all but the line ends.
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(run.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\x9b]/);
  });
});

/** What the screen itself writes on a terminal: SGR colours (ESC [ … m), erasing and cursor moves. */
// eslint-disable-next-line no-control-regex -- taking the screen's own escapes out is the point
const OWN_ESCAPES = /\x1b\[[0-9;]*[mKJGABCD]|\x1b[78]|\n/g;

describe('the screen, whoever prints on it', () => {
  it('on a terminal writes no control character of a head, body or status it is given', () => {
    const { out, written } = fakeTtyOutput(80);
    const screen = makeTtyScreen(out);
    screen.print('tool-ok', `  → x ${HOSTILE}`, '✓');
    screen.print('note', `#4 ${HOSTILE}:`, HOSTILE);
    screen.print('agent', `#5 fae ${HOSTILE} ›`, HOSTILE);
    screen.status(`fae is writing: ${HOSTILE}`, [`writing ${HOSTILE}`]);
    screen.close();
    const text = written();
    expect(text).toContain('ab[31mred[0mbellCR');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(text.replace(OWN_ESCAPES, '')).not.toMatch(/[\x00-\x1f\x7f\x9b]/);
  });

  it('piped writes none either, the status line too', () => {
    const writes: string[] = [];
    const screen = makePlainScreen(text => void writes.push(text));
    screen.print('tool-failed', `  → x ${HOSTILE}`, `✗ ${HOSTILE}`);
    screen.status(`fae is writing: ${HOSTILE}`);
    screen.close();
    expect(writes.join('')).toContain('ab[31mred[0mbellCR');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(writes.join('')).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f\x9b]/);
  });
});
