/**
 * `writeFile`: creates or replaces a text file inside the tool root, making
 * missing parent directories (only ever inside the root).
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../providers/types.js';
import {
  makeDirectoriesInside,
  openInside,
  resolveInside,
  toolRootFromEnv,
} from './lib/confine.js';
import { writeWholeFile } from './lib/file-io.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { parameters, text, type ValuesOf } from './lib/fae-parameters.js';

const toolName = 'writeFile';

async function exists(target: string): Promise<boolean> {
  try {
    await lstat(target);
    return true;
  } catch {
    return false;
  }
}

const writeFileParameters = {
  path: text('File path relative to the working directory.'),
  content: text('The whole new content of the file.', { allowEmpty: true }),
};

async function writeConfined(
  root: string,
  { path: userPath, content }: ValuesOf<typeof writeFileParameters>,
) {
  const target = await resolveInside(root, userPath, { forCreate: true });
  // Missing directories are made one by one, each inside a directory already checked.
  await makeDirectoriesInside(root, path.dirname(target), userPath);
  const created = !(await exists(target));
  const handle = await openInside(root, userPath, 'write', target);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw Error(`not a regular file: ${JSON.stringify(userPath)}`);
    const bytesWritten = await writeWholeFile(handle, content);
    return { path: userPath, bytesWritten, created };
  } finally {
    await handle.close();
  }
}

export const make = (_powers?: unknown, _context?: unknown, options?: { env?: Env }) => {
  const root = toolRootFromEnv(options?.env, toolName);
  return makeFaeTool({
    name: toolName,
    description:
      'Create or overwrite a text file inside the working directory (missing parent directories are made).',
    parameters: parameters(writeFileParameters),
    returns: '{ path, bytesWritten, created }',
    help: [
      'Replaces the whole file. path is relative to the tool root; paths that lead',
      'outside it (.., absolute, symlinks out) are refused.',
    ].join('\n'),
    run: args => writeConfined(root, args),
  });
};
harden(make);
