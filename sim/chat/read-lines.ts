/**
 * Where the typed lines come from: a prompt with the input history kept
 * between runs (./input-history.ts) on a terminal, which reads first the keys
 * typed before it opened (./early-keys.ts), one key at a time (./one-key-a-chunk.ts);
 * plain lines from a pipe.
 */
import { createInterface, type Interface } from 'node:readline';
import { describeError } from '../../providers/describe-error.js';
import { HISTORY_SIZE, type InputHistory } from './input-history.js';
import { PROMPT } from './screen.js';
import type { EarlyKeys } from './early-keys.js';
import { oneKeyAChunk, type KeyInput } from './one-key-a-chunk.js';

/** The prompt, and on a terminal the keys it reads (whose `keypress` events mark a paste). */
export interface OpenedReadline {
  readline: Interface;
  keys?: KeyInput;
}

export const openReadline = (
  tty: boolean,
  history: InputHistory,
  report: (problem: string) => void,
  earlyKeys: EarlyKeys,
): OpenedReadline => {
  if (!tty) return { readline: createInterface({ input: process.stdin, terminal: false }) };
  earlyKeys.handOver();
  const keys = oneKeyAChunk(process.stdin);
  const readline = createInterface({
    // On a terminal readline uses only its input's events, raw mode, pause and resume (Node 20).
    input: keys as unknown as NodeJS.ReadableStream,
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
  return { readline, keys };
};
harden(openReadline);
