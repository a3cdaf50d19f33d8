/**
 * A command that outlives every bound of a test unless stopped, then writes out.txt in its folder:
 * the tests that a stop kills it (docs/behaviour.md 6.7, 10.2) find its processes by `marker`
 * (runningWith, test/tools-helpers.ts) and look for the file it never got to write.
 */
import type { ScriptedReply } from '../../sim/model-server/index.js';

export const lingering = () => {
  // A sleep long past every bound of the test, and a number no other process has in its command line.
  const marker = `100.${process.pid}${Math.floor(Math.random() * 1e6)}`;
  return { marker, command: `sleep ${marker} & wait; echo hi > out.txt` };
};

/** The model double's step (sim/model-server) that runs `command` with runCommand, under no limit of its own. */
export const runCommandStep = (command: string): ScriptedReply => ({
  toolCalls: [{ name: 'runCommand', arguments: { command, timeoutMs: 120_000 } }],
});
