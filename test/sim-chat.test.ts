// `npm start` end to end: the simulator run as a person's script would run
// it (stdin piped, so plain output), against the wire-level model server
// double, with the real providers inside the mail host.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type NormalizedRequest, type ScriptedReply } from '../sim/model-server/index.js';
import { CHILD_MS } from './support/patience.js';
import { makeSimRunner, type Feed } from './support/run-sim.js';
import { lastUserText, useModelServers } from './support/model-servers.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

const SECRET = 'sk-sim-test-0123456789abcdef';

const runSimWith = makeSimRunner(makeTempFolder);
const runSim = (env: Record<string, string>, feed: Feed) => runSimWith([], env, feed);

/** The model's moves, chosen by what it was last told (the order of requests is not assumed). */
const modelScript = (request: NormalizedRequest): ScriptedReply => {
  if (request.messages[request.messages.length - 1]?.role === 'tool')
    return { text: '', usage: { inputTokens: 700, outputTokens: 2 } };
  const told = lastUserText(request);
  if (told.startsWith('APPROVED'))
    return {
      toolCalls: [
        { name: 'send', arguments: { recipient: 'HOST', strings: ['The box is made.'] } },
      ],
    };
  if (told.startsWith('REJECTED')) return { text: `Not run: ${told.split('\n')[0]}` };
  if (told.includes('make a box'))
    return { toolCalls: [{ name: 'makeDirectory', arguments: { petNamePath: ['box'] } }] };
  if (told.includes('GRANTED')) {
    const result = /Result[^:]*: (\S+)/.exec(told)?.[1] ?? '?';
    return {
      toolCalls: [
        { name: 'send', arguments: { recipient: 'HOST', strings: [`It is ${result}.`] } },
      ],
    };
  }
  if (told.includes('6 * 7'))
    return {
      toolCalls: [{ name: 'evaluate', arguments: { source: '6 * 7', resultName: 'answer' } }],
    };
  if (told.includes('look up'))
    return { toolCalls: [{ name: 'lookup', arguments: { petNamePath: 'nothing-here' } }] };
  if (told.includes('my name is')) return { text: 'Noted.' };
  if (told.includes('what is my name')) {
    const earlier = request.messages.find(message => /my name is (\w+)/.test(message.text));
    return {
      text: earlier ? `You are ${/my name is (\w+)/.exec(earlier.text)![1]}.` : 'I do not know.',
    };
  }
  if (told.includes('ping')) {
    const number = Number([...told.matchAll(/#(\d+)/g)].pop()?.[1]);
    return {
      toolCalls: [{ name: 'reply', arguments: { messageNumber: number, strings: ['pong'] } }],
      usage: { inputTokens: 812, outputTokens: 9 },
    };
  }
  return { text: 'I did not expect that.' };
};

const startServer = useModelServers();

describe('npm start, not on a terminal', () => {
  it('mails typed lines to the agent and shows its reply, each tool call and its outcome, and the usage, then exits 0', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript, apiKey: SECRET });
    const run = await runSim({ LAL_HOST: server.url, LAL_AUTH_TOKEN: SECRET }, input => {
      input.write('ping\nlook up nothing\n');
      input.end();
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^#0 lal › Lal agent ready\. I think with /m);
    expect(run.stdout).toMatch(/^you › ping$/m);
    expect(run.stdout).toMatch(/^ {2}→ reply #\d+ "pong" ✓$/m);
    expect(run.stdout).toMatch(/^#\d+ lal › pong$/m);
    // The reply to the sender ends the turn: one model call, with the usage the server reported.
    expect(run.stdout).toMatch(
      /turn over: 1 model call \(double-model\), 812 in \(0 cached\) \/ 9 out tokens/,
    );
    // The next turn's request begins as the first did: the server's prompt cache served that part.
    expect(run.stdout).toMatch(
      /turn over: 2 model calls \(double-model\), [\d,]+ in \([1-9][\d,]* cached\) \/ \d+ out tokens/,
    );
    // Plain output for a pipe: no escape codes, no spinner.
    expect(run.stdout).not.toContain('\x1b');
    // A failed remote call is one compact line, without marshal's console report of the error.
    expect(run.stdout).toMatch(/^ {2}→ lookup petNamePath="nothing-here" ✗ .*Unknown pet name/m);
    expect(run.stdout).not.toMatch(/Temporary logging|ERROR_NOTE|\n\s+at /);
    // The key reached the server, and nothing a person or a log file sees.
    expect(server.requests.some(request => request.hadAuth)).toBe(true);
    // The log is a private file of its own (behaviour: nothing readable by other users).
    const logPath = /its log is (\S+\.log)\./.exec(run.stdout)?.[1] ?? '';
    // Mode bits for group and others (the last two octal digits) are all off.
    expect(statSync(logPath).mode.toString(8).slice(-2)).toBe('00');
    expect(statSync(dirname(logPath)).mode.toString(8).slice(-2)).toBe('00');
    const log = readFileSync(logPath, 'utf8');
    expect(log).toContain('turn');
    for (const text of [run.stdout, run.stderr, log]) expect(text).not.toContain(SECRET);
  });

  it('shows an eval-proposal with its number, grants it on /grant <n>, and shows the agent telling the result', async () => {
    const server = await startServer({ protocol: 'ollama', reply: modelScript });
    const run = await runSim({ LAL_HOST: server.url }, input => {
      input.write('what is 6 * 7?\n');
      // A script reads the number off the screen, as a person would.
      void input.waitFor(/eval-proposal #(\d+)\):/).then(found => {
        input.write(`/grant ${found[1]}\n/inbox\n`);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const number = /eval-proposal #(\d+)\): 6 \* 7$/m.exec(run.stdout)?.[1];
    expect(number).toBeDefined();
    expect(run.stdout).toContain(`answer with /grant ${number} · /reject ${number} [reason]`);
    expect(run.stdout).toMatch(new RegExp(`^granted #${number} → 42$`, 'm'));
    expect(run.stdout).toMatch(/^#\d+ lal › It is 42\.$/m);
    // Granted proposals leave HOST's inbox; the agent's words stay.
    const inbox = run.stdout.slice(run.stdout.lastIndexOf('you › /inbox'));
    expect(inbox).toContain('It is 42.');
    expect(inbox).not.toContain('eval-proposal-reviewer');
  });

  it('shows a request for approval of a tool call with how to answer it, and approves it on /grant <n>', async () => {
    const server = await startServer({
      protocol: 'openai',
      reply: modelScript,
      models: ['double-a', 'double-b'],
    });
    const run = await runSim(
      { LAL_HOST: server.url, LAL_TOOLS_APPROVE: 'makeDirectory', LAL_TRUSTED_SENDERS: 'nobody' },
      input => {
        input.write('make a box\n');
        void input.waitFor(/approval request #(\d+)\):/).then(found => {
          input.write(`/grant ${found[1]}\n`);
          input.end();
        });
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // The greeting names the model in use and the others the server offers.
    expect(run.stdout).toMatch(
      /^#0 lal › Lal agent ready\. I think with double-a \(openai\), the first model the server lists\. The server also offers double-b; set `LAL_MODEL` to choose one\.$/m,
    );
    const number = /asks to call a tool \(approval request #(\d+)\):/.exec(run.stdout)?.[1];
    expect(number).toBeDefined();
    expect(run.stdout).toContain('makeDirectory {"petNamePath":["box"]}');
    expect(run.stdout).toContain(
      `allow it? y runs it · n refuses it · a runs it and makeDirectory's later calls without asking; then Enter — or /grant ${number} · /reject ${number} [reason]`,
    );
    expect(run.stdout).toMatch(new RegExp(`^approved #${number}$`, 'm'));
    expect(run.stdout).toMatch(/^#\d+ lal › The box is made\.$/m);
  });

  it('/inbox names a waiting proposal for what it is; /dismiss all refuses it, so the agent hears it will not run', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript });
    const run = await runSim({ LAL_HOST: server.url }, input => {
      input.write('what is 6 * 7?\n');
      void input.waitFor(/eval-proposal #(\d+)\):/).then(() => {
        input.write('/inbox\n/dismiss all\n');
        void input.waitFor(/lal › Not run:/).then(() => input.end());
      });
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const number = /eval-proposal #(\d+)\):/.exec(run.stdout)?.[1];
    expect(run.stdout).toMatch(
      new RegExp(`^dismissed every message \\(#${number} refused: lal is told\\)$`, 'm'),
    );
    // /inbox says what the proposal is, not the daemon's message type.
    // With the agent's id once its memory holds the proposal (typed here as the proposal came, maybe before).
    expect(run.stdout).toMatch(
      new RegExp(`^#${number} lal(?: \\(p1\\))?: asks to run code: 6 \\* 7$`, 'm'),
    );
    expect(run.stdout).not.toContain('eval-proposal-reviewer');
    expect(run.stdout).toMatch(
      /^#\d+ lal › Not run: REJECTED.*The host dismissed it without an answer/m,
    );
  });

  it('without a model server says so in one line naming LAL_HOST and exits non-zero', async () => {
    const port = await new Promise<number>(resolve => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const run = await runSim({ LAL_HOST: `http://127.0.0.1:${port}` }, input => input.end());
    expect(run.code).not.toBe(0);
    const output = `${run.stdout}${run.stderr}`.trim();
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toContain(`Nothing answers at http://127.0.0.1:${port}`);
    expect(output).toContain('Check LAL_HOST');
    expect(output).not.toMatch(/\n\s+at |Error:/);
  });

  it('piped, with a model the server does not serve: names the models it has, greets nobody, exits non-zero', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript, models: ['qwen3'] });
    const run = await runSim({ LAL_HOST: server.url, LAL_MODEL: 'gpt-9' }, input => {
      input.write('ping\n');
      input.end();
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `${server.url} does not serve the model "gpt-9" that LAL_MODEL names; it has qwen3 — set LAL_MODEL to it.`,
    );
    expect(run.stdout).not.toContain('ready');
  });

  it('words a number that names nothing to act on the same way for every command, without daemon terms', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript });
    const run = await runSim({ LAL_HOST: server.url }, input => {
      input.write('/grant 99\n/reject 0\n/counter 0 1+1\n/dismiss 99\n');
      input.end();
    });
    expect(run.stdout).toContain(
      '#99 is not an eval-proposal or approval request waiting for an answer in your inbox; /inbox lists your messages',
    );
    expect(run.stdout).toContain(
      '#0 is not an eval-proposal or approval request waiting for an answer in your inbox; /inbox lists your messages',
    );
    expect(run.stdout).toContain(
      '#0 is not an eval-proposal waiting for an answer in your inbox; /inbox lists your messages',
    );
    expect(run.stdout).toContain('#99 is not a message in your inbox; /inbox lists your messages');
    expect(run.stdout).not.toMatch(/"package"|No such message/);
  });

  it(
    'keeps the conversation across runs in a state folder of its own, named at start; --fresh starts clean (behaviour 10.1)',
    async () => {
      const server = await startServer({ protocol: 'openai', reply: modelScript });
      const state = makeTempFolder('kept');
      const env = { LAL_HOST: server.url, XDG_STATE_HOME: state };
      const first = await runSim(env, input => {
        input.write('my name is Ada\n');
        input.end();
      });
      expect(first.code).toBe(0);
      const folder = join(state, 'lal-fae', 'lal');
      expect(first.stdout).toContain(`lal's state is kept in ${folder} (--fresh starts clean)`);
      const second = await runSim(env, input => {
        input.write('what is my name?\n/status\n/memory\n');
        input.end();
      });
      expect(second.stderr).toBe('');
      expect(second.stdout).toMatch(/^#\d+ lal › Lal agent ready/m);
      expect(second.stdout).toMatch(/^#\d+ lal › You are Ada\.$/m);
      // /status: the agent's state as help() says it; /memory: what it keeps, both runs' turns.
      expect(second.stdout).toMatch(/^Model:\n- I think with double-model/m);
      expect(second.stdout).toMatch(/^Usage:\n- since /m);
      expect(second.stdout).toMatch(
        /^What lal keeps:\n- the conversation: 2 recent turns[^\n]*\n {2}· #\d+ from HOST: "my name is Ada"\n {2}· #\d+ from HOST: "what is my name\?"/m,
      );
      const fresh = await runSimWith(['--fresh'], env, input => {
        input.write('what is my name?\n');
        input.end();
      });
      expect(fresh.stdout).toContain('(started clean: --fresh)');
      expect(fresh.stdout).toMatch(/^#\d+ lal › I do not know\.$/m);
      // One log a run, in the state folder; nothing left in the temporary folder.
      expect(readdirSync(join(folder, 'logs'))).toHaveLength(3);
      // Three runs of the simulator, one after the other: each has a child's bound.
    },
    3 * CHILD_MS,
  );

  it('piped, a turn that fails: its error shown once, and the exit code 1 (behaviour 10.3)', async () => {
    const server = await startServer({
      protocol: 'openai',
      reply: () => ({ failure: { status: 500, message: 'the GPU caught fire' } }),
    });
    const run = await runSim({ LAL_HOST: server.url, LAL_MAX_RETRIES: '0' }, input => {
      input.write('ping\n');
      input.end();
    });
    expect(run.code).toBe(1);
    expect(run.stdout.match(/the GPU caught fire/g)).toHaveLength(1);
    expect(run.stdout).toMatch(/turn over \(error\): 1 model call/);
  });

  it('LAL_LOG=off writes no log, and says so', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript });
    const state = makeTempFolder('quiet');
    const run = await runSim(
      { LAL_HOST: server.url, XDG_STATE_HOME: state, LAL_LOG: 'off' },
      input => input.end(),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('its log is not written (LAL_LOG=off)');
    expect(existsSync(join(state, 'lal-fae', 'lal', 'logs'))).toBe(false);
  });

  it('names a misspelt setting and the one it is close to', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript });
    const run = await runSim({ LAL_HOST: server.url, LAL_HOTS: 'http://x' }, input => input.end());
    expect(run.stderr).toContain(
      'warning: LAL_HOTS is not a setting of lal-fae; did you mean LAL_HOST?',
    );
  });
});

describe('npm start and its .env', () => {
  it('says which .env it read, and stops in one line when one is there but cannot be read', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript });
    const folder = makeTempFolder('dotenv');
    writeFileSync(join(folder, '.env'), `LAL_HOST=${server.url}\n`);
    const read = await runSimWith([], {}, input => input.end(), folder);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain(
      `Settings read from ${join(folder, '.env')} (a variable set in the shell wins over it).`,
    );
    const broken = makeTempFolder('dotenv-folder');
    mkdirSync(join(broken, '.env'));
    const refused = await runSimWith([], {}, input => input.end(), broken);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `${join(broken, '.env')} could not be read: it is a folder, not a file; fix it or move it away, then start again.\n`,
    );
  });
});

describe('npm start piped, a turn a bound stopped', () => {
  it('exits 1, counts "1 model call", and says the proposal it made still waits', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript });
    const run = await runSim({ LAL_HOST: server.url, LAL_MAX_MODEL_CALLS: '1' }, input => {
      input.write('what is 6 * 7?\n');
      input.end();
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^#\d+ lal › I stopped working on this: the turn used its 1 model call\. What I asked for it still waits for an answer; I will tell you what comes of it\.$/m,
    );
    expect(run.stdout).toMatch(/eval-proposal #\d+\): 6 \* 7$/m);
    expect(run.stdout).toMatch(/turn over \(max-model-calls\): 1 model call /);
  });
});

describe('/status in npm start', () => {
  it('says why live progress is off where the words still stream on screen', async () => {
    const server = await startServer({ protocol: 'openai', reply: modelScript });
    const run = await runSim({ LAL_HOST: server.url }, input => {
      input.write('/status\n');
      input.end();
    });
    expect(run.stdout).toMatch(
      /^Live progress:\n- off: this daemon cannot edit a message, so each answer is sent whole, once written; a terminal may still show the words as they stream$/m,
    );
  });
});
