/**
 * `npm start` on a terminal, several messages typed while one turn runs (issue 45): each is shown
 * at once as waiting (`waits › …`), and as sent (`you › …`) only when its own turn begins; the
 * others keep saying they wait meanwhile (docs/behaviour.md 10.2, sim/chat/typed-lines.ts).
 * Before, all of them were shown as sent together as the first turn ended.
 */
import { describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenLines } from './support/terminal-screen.js';
import { useRawServer } from './support/raw-http-server.js';

const makeTempFolder = useTempFolders();
const { serve } = useRawServer();

const COLUMNS = 80;

/**
 * An OpenAI-compatible server answering `answer N` to its Nth chat call; the first not before
 * `release` (which may come before that call does).
 */
const heldFirstAnswer = async () => {
  let calls = 0;
  let held: ServerResponse | undefined;
  let released = false;
  const answer = (response: ServerResponse, n: number) =>
    response.end(
      JSON.stringify({
        ...{ id: 'c', object: 'chat.completion', created: 0, model: 'm' },
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: `answer ${n}` },
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 },
      }),
    );
  const url = await serve((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.method === 'GET') {
      response.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
      return;
    }
    calls += 1;
    if (calls === 1 && !released) held = response;
    else answer(response, calls);
  });
  return {
    url,
    release: () => {
      released = true;
      if (held !== undefined) answer(held, 1);
      return Promise.resolve();
    },
  };
};

describe('messages typed while a turn runs, on a terminal', () => {
  it('are each shown as sent when their own turn begins, the others still waiting', async () => {
    const server = await heldFirstAnswer();
    const output = await runSimOnTty(
      [],
      {
        ...{ LAL_HOST: `${server.url}/v1`, XDG_STATE_HOME: makeTempFolder('state') },
        TMPDIR: makeTempFolder('tmp'),
      },
      [
        { after: /Lal agent ready/, keys: 'first\r' },
        { after: /thinking/, keys: 'second\r' },
        { after: /waits › second/, keys: 'third\r' },
        // Both wait: only now does the first turn end.
        { after: /waits › third/, keys: '', before: server.release },
        { after: /answer 3[^]*turn over/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
      { columns: COLUMNS, rows: 30 },
    );
    const lines = await screenLines(output, COLUMNS);
    const at = (pattern: RegExp) => {
      const found = lines.filter(line => pattern.test(line));
      // Each shows once.
      expect(found, `${pattern} in\n${lines.join('\n')}`).toHaveLength(1);
      return lines.findIndex(line => pattern.test(line));
    };
    const order = [
      at(/^waits › second \(goes to lal once its turn is over\)$/),
      at(/^waits › third \(goes to lal once its turn is over\)$/),
      at(/^#\d+ lal › answer 1$/),
      at(/^you › second$/),
      at(/^#\d+ lal › answer 2$/),
      at(/^you › third$/),
      at(/^#\d+ lal › answer 3$/),
    ];
    expect(order, lines.join('\n')).toEqual([...order].sort((a, b) => a - b));
  });
});
