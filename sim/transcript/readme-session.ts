/**
 * The README's example session, recorded from the current code: `npm start`
 * with piped input, talking to Fae, who thinks with a scripted model server on
 * loopback (the model's moves are chosen by what it was last told). `npm run
 * transcript` prints it (`-- --write` puts it in the README);
 * test/readme-transcript.test.ts fails when the README's copy differs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startModelServer } from '../model-server/index.js';
import type { NormalizedRequest, ScriptedReply } from '../model-server/index.js';

/** What the person types, one line each; the simulator sends each once the agent is idle. */
const SESSION_INPUT: readonly string[] = [
  'ping',
  'what is 6 * 7? Work it out with code.',
  '/grant',
  '/attach math',
];

/** The address the transcript shows for the model server (the real one is a free loopback port). */
const SHOWN_HOST = 'http://127.0.0.1:8080/v1';
const SHOWN_MODEL = 'qwen3';

/** The command a reader types to get the same session from a model of their own. */
export const SESSION_COMMAND = `printf '${SESSION_INPUT.join('\\n')}\\n' | LAL_HOST=${SHOWN_HOST} LAL_MODEL=${SHOWN_MODEL} npm start --silent -- --persona fae`;
harden(SESSION_COMMAND);

/** The folder holding package.json, from here or from the built copy in dist/. */
const findRepoRoot = (from: string): string =>
  existsSync(join(from, 'package.json')) ? from : findRepoRoot(dirname(from));
export const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
harden(repoRoot);

const lastTold = (request: NormalizedRequest): string =>
  [...request.messages].reverse().find(message => message.role === 'user')?.text ?? '';

const lastNumber = (text: string): number =>
  Number([...text.matchAll(/#(\d+)/g)].pop()?.[1] ?? Number.NaN);

/** Token counts as a server reports them, fixed so the transcript does not move with the prompt. */
const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({
  inputTokens,
  outputTokens,
  cachedInputTokens,
});

/** The model's moves: each chosen by the last thing it was told, the order of requests not assumed. */
const model = (request: NormalizedRequest): ScriptedReply => {
  const told = lastTold(request);
  const last = request.messages[request.messages.length - 1];
  if (last?.role === 'tool') {
    if (last.text.includes('"pending"'))
      return {
        text: 'I have asked my host to run it; I will tell you the result.',
        usage: usage(1020, 27, 948),
      };
    if (/adopted|"math"/.test(last.text) && !last.text.includes('result'))
      return {
        toolCalls: [{ name: 'math', arguments: { operation: 'multiply', a: 6, b: 7 } }],
        usage: usage(1290, 24, 1210),
      };
    const number = lastNumber(told);
    return {
      toolCalls: [
        {
          name: 'reply',
          arguments: { messageNumber: number, strings: ['Adopted it: 6 × 7 = 42'] },
        },
      ],
      usage: usage(1310, 31, 1286),
    };
  }
  if (told.startsWith('GRANTED'))
    return {
      toolCalls: [
        {
          name: 'reply',
          arguments: { messageNumber: lastNumber(told), strings: ['The answer is 42.'] },
        },
      ],
      usage: usage(1104, 37, 1019),
    };
  if (told.includes('6 * 7'))
    return {
      toolCalls: [{ name: 'evaluate', arguments: { source: '6 * 7', resultName: 'answer' } }],
      usage: usage(951, 34),
    };
  if (/@math|"math"|math/.test(told) && told.includes('Message #'))
    return {
      toolCalls: [
        {
          name: 'mail',
          arguments: {
            op: 'adoptTool',
            messageNumber: lastNumber(told),
            edgeName: 'math',
            toolName: 'math',
          },
        },
      ],
      usage: usage(1293, 56, 1019),
    };
  if (told.includes('ping'))
    return {
      toolCalls: [
        { name: 'reply', arguments: { messageNumber: lastNumber(told), strings: ['pong'] } },
      ],
      usage: usage(848, 34),
    };
  return { text: 'I did not expect that.', usage: usage(900, 8) };
};

/** Runs the simulator once, piped, and returns what it printed, with the run's own paths made stable. */
export const recordReadmeSession = async (): Promise<string> => {
  const server = await startModelServer({
    protocol: 'openai',
    reply: model,
    models: [SHOWN_MODEL],
  });
  const folder = mkdtempSync(join(tmpdir(), 'lal-fae-transcript-'));
  try {
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [join(repoRoot, 'scripts', 'start.mjs'), '--persona', 'fae'],
        {
          cwd: folder,
          env: {
            PATH: process.env.PATH ?? '',
            TMPDIR: folder,
            // The state folder (kept conversation, logs) a new user starts with: none yet.
            XDG_STATE_HOME: join(folder, 'state'),
            LAL_SIM_NO_BUILD: '1',
            LAL_HOST: server.url,
            LAL_MODEL: SHOWN_MODEL,
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', code =>
        code === 0 ? resolve(out) : reject(Error(`the simulator exited ${code}: ${err}${out}`)),
      );
      child.stdin.end(`${SESSION_INPUT.join('\n')}\n`);
    });
    return stdout
      .replaceAll(server.url, SHOWN_HOST)
      .replaceAll(join(folder, 'state'), '~/.local/state')
      .replace(/agent-[\dT-]+Z\.log/g, 'agent-<date>.log')
      .trimEnd();
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
};
harden(recordReadmeSession);
