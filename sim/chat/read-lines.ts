/**
 * Where the typed lines come from: a prompt with the input history kept
 * between runs (./input-history.ts) on a terminal, which reads first the keys
 * typed before it opened (./early-keys.ts); plain lines from a pipe.
 */
import { createInterface, type Interface } from 'node:readline';
import { describeError } from '../../providers/describe-error.js';
import { HISTORY_SIZE, type InputHistory } from './input-history.js';
import { PROMPT } from './screen.js';
import type { EarlyKeys } from './early-keys.js';

export const openReadline = (
  tty: boolean,
  history: InputHistory,
  report: (problem: string) => void,
  earlyKeys: EarlyKeys,
): Interface => {
  if (!tty) return createInterface({ input: process.stdin, terminal: false });
  earlyKeys.handOver();
  const readline = createInterface({
    input: process.stdin,
    output: process.stdout,
    prompt: PROMPT,
    terminal: true,
    history: history.load(),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
  });
  readline.on('history', (lines: string[]) => {
    try {
      history.save(lines);
    } catch (error) {
      report(`could not keep what you typed in ${history.path}: ${describeError(error)}`);
    }
  });
  return readline;
};
harden(openReadline);
