/**
 * Ctrl-C in `npm start` stops the tool call the turn waits on (behaviour 6.7 and 10.2): on a
 * terminal, with runCommand attached, a turn whose command would write a file after a long sleep
 * is stopped with Ctrl-C; while the simulator still runs, no process of the command is left and
 * the file never appears. runCommand runs in bubblewrap here, as npm start runs it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NormalizedRequest, ScriptedReply } from '../sim/model-server/index.js';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { doubleEnv, lastUserText, useModelServers } from './support/model-servers.js';
import { runSimOnTty, type TtyStep } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { runningWith } from './tools-helpers.js';
import { skippedBecause } from './support/skipped-because.js';
import { lingering, runCommandStep } from './support/lingering-command.js';

const makeTempFolder = useTempFolders();
const startServer = useModelServers();
const problem = await checkSandbox();

/** The model's adoption of the runCommand tool /attach mailed in message `messageNumber`. */
const adoption = (messageNumber: number) => ({
  name: 'adoptTool',
  arguments: { messageNumber, edgeName: 'run-command', toolName: 'run-command' },
});

/**
 * The model: adopts the runCommand tool /attach mails, runs `command` when asked to run the long
 * one, and says what `afterTool` says once a tool answered (its result's text).
 */
const modelRunning =
  (command: string, afterTool: (result: string) => ScriptedReply | Promise<ScriptedReply>) =>
  (request: NormalizedRequest): ScriptedReply | Promise<ScriptedReply> => {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return afterTool(last.text);
    const told = lastUserText(request);
    const offered = /#(\d+)[^\n]*Here is a tool for you/.exec(told);
    if (offered !== null) return { toolCalls: [adoption(Number(offered[1]))] };
    if (told.includes('run the long one')) return runCommandStep(command);
    return { text: 'ok' };
  };

/** A model double running `script`, and the simulator's settings to reach it. */
const startWith = async (script: ReturnType<typeof modelRunning>) => {
  const server = await startServer({ protocol: 'openai', reply: script });
  return { ...doubleEnv(server.url, makeTempFolder), LAL_TOOL_TIMEOUT_MS: '600000' };
};

/**
 * The steps that stop the command: Ctrl-C once `running` is printed and its processes are seen,
 * then /quit once `stopped` is, after seeing, while the simulator still runs (its leaving must not
 * be what ends the command), that none is left and out.txt was never written in `root`.
 */
const stopAndQuit = (running: RegExp, stopped: RegExp, marker: string, root: string): TtyStep[] => [
  {
    after: running,
    keys: '\x03',
    before: () => expect.poll(() => runningWith(marker).length).toBeGreaterThan(0),
  },
  {
    after: stopped,
    keys: '/quit\r',
    before: async () => {
      await expect.poll(() => runningWith(marker).length).toBe(0);
      expect(existsSync(join(root, 'out.txt'))).toBe(false);
    },
  },
];

describe.skipIf(problem !== undefined)(
  `Ctrl-C in npm start while runCommand runs${skippedBecause(problem)}`,
  () => {
    it('kills the command: no process of it is left and its later write never happens', async () => {
      const root = makeTempFolder('root');
      const { marker, command } = lingering();
      const env = await startWith(
        modelRunning(command, result => ({ text: `The tool answered: ${result}` })),
      );
      const output = await runSimOnTty(
        ['--persona', 'fae', '--yes'],
        env,
        [
          { after: /agent ready/, keys: `/attach runCommand ${root}\r` },
          { after: /turn over/, keys: 'please run the long one\r' },
          ...stopAndQuit(
            /fae is running runCommand/,
            /stopped; what it kept is still there/,
            marker,
            root,
          ),
        ],
        makeTempFolder('cwd'),
      );
      expect(output).toMatch(/Stopping fae's turn/);
    });

    it('kills a command approved while its asking turn still ran: Ctrl-C after that turn is over stops it', async () => {
      const root = makeTempFolder('root');
      const { marker, command } = lingering();
      // The asking turn's second model call waits until the approval has been given, so the yes
      // comes while that turn runs and the approved call outlives it (behaviour 6.7).
      let release = () => {};
      const approved = new Promise<void>(resolve => (release = resolve));
      const env = await startWith(
        modelRunning(command, async result => {
          if (!result.includes('pending')) return { text: 'ok' };
          await approved;
          return { text: 'I have asked my host.' };
        }),
      );
      const output = await runSimOnTty(
        ['--persona', 'fae'],
        env,
        [
          { after: /agent ready/, keys: `/attach runCommand ${root}\r` },
          { after: /turn over/, keys: 'please run the long one\r' },
          { after: /asks to call a tool \(approval request #\d+\)/, keys: 'y\r' },
          {
            after: /approved #\d+/,
            keys: '',
            before: () => {
              release();
              return Promise.resolve();
            },
          },
          ...stopAndQuit(/I have asked my host[\s\S]*turn over/, /Ctrl-C/, marker, root),
        ],
        makeTempFolder('cwd'),
      );
      // What it stops is the approved call, which runs after its turn (issue 45, trial 15).
      expect(output).toMatch(/Stopping the approved runCommand call \(Ctrl-C again leaves\)…/);
      expect(output).not.toMatch(/Stopping fae's turn/);
      // The call approved, run after the turn that asked, says so (issue 45, trial 14).
      expect(output).toMatch(/→ approved runCommand[^\n]*✗[^\n]*cancelled/);
    });
  },
);
