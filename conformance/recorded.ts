/**
 * What the real daemons answered to the sequence (`npm run conformance --
 * --endo <checkout> --record`), kept in conformance/recorded/<generation>.json
 * so that CI checks the double against them without a daemon.
 */
import { makeError, q, X } from '@endo/errors';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Generation } from '../src/daemon/generation.js';
import type { Outcome } from './outcome.js';

export interface Recording {
  /** The endo commit the outcomes came from. */
  commit: string;
  generation: Generation;
  outcomes: Outcome[];
}

// From conformance/ (tests, on the sources) or from dist/conformance/ (the built script).
const FOLDERS = ['./recorded/', '../../conformance/recorded/'].map(relative =>
  fileURLToPath(new URL(relative, import.meta.url)),
);

const folder = (): string => {
  const found = FOLDERS.find(candidate => existsSync(candidate));
  if (found === undefined) throw makeError(X`No recorded outcomes in ${q(FOLDERS)}`);
  return found;
};

export const readRecording = (generation: Generation): Recording =>
  JSON.parse(readFileSync(`${folder()}${generation}.json`, 'utf8')) as Recording;
harden(readRecording);

export const writeRecording = (recording: Recording): string => {
  const path = `${folder()}${recording.generation}.json`;
  writeFileSync(path, `${JSON.stringify(recording, null, 2)}\n`);
  return path;
};
harden(writeRecording);
