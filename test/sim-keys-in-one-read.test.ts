/**
 * Keys that arrive in one read (the program slow to read: a busy machine, a slow SSH link) are
 * edited as keys typed apart are, so the line sent to the agent is the line the screen shows
 * (docs/behaviour.md 10.2, sim/chat/one-key-a-chunk.ts). Node 20's readline, given them in one
 * chunk, moved the cursor on the screen but added every character at the line's end: `abc` ← ←
 * `X` Enter showed `› aXc` and sent "abcX" (issue 45, trial 14).
 */
import { describe, expect, it } from 'vitest';
import type { NormalizedRequest } from '../sim/model-server/index.js';
import { useModelServers } from './support/model-servers.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenLines } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();
const startServer = useModelServers();

const COLUMNS = 80;
const LEFT = '\x1b[D';
const BACKSPACE = '\x7f';

const lastUserText = (request: NormalizedRequest): string =>
  [...request.messages].reverse().find(message => message.role === 'user')?.text ?? '';

/** Types `keys` in one write once the agent is ready: what the agent was sent, and the screen. */
const typedAtOnce = async (keys: string) => {
  const server = await startServer({ protocol: 'openai', reply: () => ({ text: 'Noted.' }) });
  const output = await runSimOnTty(
    [],
    {
      ...{ LAL_HOST: server.url, LAL_MODEL: 'double-model' },
      ...{ XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
    },
    [
      { after: /agent ready/, keys },
      { after: /Noted\.[^]*turn over/, keys: '/quit\r' },
    ],
    makeTempFolder('cwd'),
    { columns: COLUMNS, rows: 30 },
  );
  const asked = server.requests.flatMap(request =>
    request.normalized === undefined ? [] : [lastUserText(request.normalized)],
  );
  return { asked, lines: await screenLines(output, COLUMNS) };
};

describe('editing keys that arrive in one read', () => {
  it('send the line the screen shows: the cursor moved left inserts where it is', async () => {
    const { asked, lines } = await typedAtOnce(`abc${LEFT}${LEFT}X\r`);
    expect(asked.filter(text => /HOST: aXbc$/.test(text))).toHaveLength(1);
    expect(asked.some(text => text.includes('abcX'))).toBe(false);
    expect(lines.some(line => /^› aXbc$/.test(line))).toBe(true);
  });

  it('and a Backspace after it deletes left of the cursor, not at the end', async () => {
    const { asked, lines } = await typedAtOnce(`abcd${LEFT}${LEFT}X${BACKSPACE}Y\r`);
    expect(asked.filter(text => /HOST: abYcd$/.test(text))).toHaveLength(1);
    expect(lines.some(line => /^› abYcd$/.test(line))).toBe(true);
  });
});
