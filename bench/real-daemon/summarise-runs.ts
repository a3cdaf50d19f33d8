/**
 * `node dist/bench/real-daemon/summarise-runs.js <record file> <over>/<under>…`: the
 * ping-timer runs one daemon's `BENCH_PING_RECORD` file holds, read against the
 * target pair by pair (speed-summary.ts; docs/benchmark.md).
 */
import '@endo/init';
import { readFileSync } from 'node:fs';
import { makeError, q, X } from '@endo/errors';
import { sayToConsole, sayToStderr } from '../../setup/say.js';
import { parseRunRecords } from './speed-record.js';
import { summariseRuns } from './speed-summary.js';

const readPair = (word: string): [string, string] => {
  const parts = word.split('/');
  const [over, under] = parts;
  if (parts.length !== 2 || !over || !under)
    throw makeError(X`a pair is <guest>/<floor>, got ${q(word)}`);
  return [over, under];
};

try {
  const [file, ...words] = process.argv.slice(2);
  if (file === undefined || words.length === 0)
    throw makeError(X`usage: summarise-runs.js <record file> <guest>/<floor>…`);
  const runs = parseRunRecords(readFileSync(file, 'utf8'), file);
  for (const line of summariseRuns(runs, words.map(readPair))) sayToConsole(line);
} catch (error) {
  sayToStderr((error as Error).message);
  process.exitCode = 1;
}
