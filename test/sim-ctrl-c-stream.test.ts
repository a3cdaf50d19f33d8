/**
 * A reply stopped by Ctrl-C while it streams (docs/behaviour.md 10.2): what had streamed stays on
 * the screen, marked as cut short (it lived only in the status line's ticker), and the turn's one
 * summary line says its tokens as every turn's does; and once a reply is sent, the status line no
 * longer says the agent thinks or writes.
 */
import { describe, expect, it } from 'vitest';
import type { NormalizedRequest, ScriptedReply } from '../sim/model-server/index.js';
import { doubleEnv, lastUserText, useModelServers } from './support/model-servers.js';
import { printedLines, runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const startServer = useModelServers();

/** "a story" streams six words and stalls (only Ctrl-C ends it); anything else is answered at once. */
const script = (request: NormalizedRequest): ScriptedReply =>
  lastUserText(request).includes('a story')
    ? { text: 'Once upon a time there lived a fox in the wood', stallAfterFrames: 7 }
    : { text: 'pong' };

const start = async () => {
  const server = await startServer({ protocol: 'openai', reply: script });
  return doubleEnv(server.url, makeTempFolder);
};

describe('Ctrl-C while a reply streams', () => {
  it('leaves what had streamed on the screen, cut short, and sums the turn up with its tokens', async () => {
    const env = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        { after: /agent ready/, keys: 'tell me a story\r' },
        { after: /is writing: Once upon a time there/, keys: '\x03' },
        { after: /lal stopped[\s\S]*turn over|turn over[\s\S]*lal stopped/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
    );
    const lines = printedLines(output);
    const shown = lines.join('\n');
    const cut = lines.findIndex(line => line.includes('Once upon a time there'));
    expect(cut, shown).toBeGreaterThan(-1);
    expect(lines[cut]).toMatch(/^lal \(cut short[^)]*\) › Once upon a time there/);
    const over = lines.findIndex(line => line.includes('turn over'));
    expect(lines[over]).toMatch(
      /^ {2}· turn over \(cancelled\): 1 model call, about [\d,]+ in \/ [1-9][\d,]* out tokens/,
    );
    // In the order they happened: the words, the turn's end, then the stop's last word.
    const stopped = lines.findIndex(line => line.startsWith('lal stopped'));
    expect(cut).toBeLessThan(over);
    expect(over).toBeLessThan(stopped);
  });
});

describe('the status line once a reply is sent', () => {
  it('no longer says the agent thinks or writes', async () => {
    const env = await start();
    const output = await runSimOnTty(
      [],
      env,
      [
        { after: /agent ready/, keys: 'ping\r' },
        { after: /turn over/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
    );
    // From the reply's line (its head, then its text) to the turn's summary.
    const reply = output.search(/#\d+ lal ›\S* pong/);
    expect(reply, output).toBeGreaterThan(-1);
    const afterReply = output.slice(reply, output.indexOf('turn over', reply));
    expect(afterReply, output).toMatch(/lal is finishing/);
    expect(afterReply).not.toMatch(/lal is (thinking|writing)/);
  });
});
