/**
 * `listDir`: the entries of a directory inside the tool root, each with its
 * type (symlinks reported as symlinks, not followed) and size.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../providers/types.js';
import { openInside, resolveInside, toolRootFromEnv } from './lib/confine.js';
import { describeFsError } from './lib/fs-error.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { optional, parameters, text, type ValuesOf } from './lib/fae-parameters.js';

const toolName = 'listDir';
const maxEntries = 1000;

type EntryType = 'file' | 'dir' | 'symlink' | 'other';

interface DirEntry {
  name: string;
  type: EntryType;
  size: number;
}

async function describeEntry(directory: string, name: string): Promise<DirEntry> {
  try {
    const stats = await lstat(path.join(directory, name));
    const type: EntryType = stats.isSymbolicLink()
      ? 'symlink'
      : stats.isDirectory()
        ? 'dir'
        : stats.isFile()
          ? 'file'
          : 'other';
    return { name, type, size: stats.size };
  } catch {
    // Removed between readdir and lstat: still name it.
    return { name, type: 'other', size: 0 };
  }
}

const listDirParameters = {
  // Empty, as left out: the working directory itself.
  path: optional(
    text('Directory path relative to the working directory (default ".").', { allowEmpty: true }),
  ),
};

async function listConfined(root: string, { path: requested }: ValuesOf<typeof listDirParameters>) {
  const userPath = requested === undefined || requested === '' ? '.' : requested;

  const resolved = await resolveInside(root, userPath);
  // Open the directory and list it through its descriptor where Linux allows,
  // so what is listed is what was checked.
  const handle = await openInside(root, userPath, 'directory', resolved);
  try {
    let directory = resolved;
    let names: string[] | undefined;
    if (process.platform === 'linux') {
      const throughDescriptor = `/proc/self/fd/${handle.fd}`;
      try {
        names = await readdir(throughDescriptor);
        directory = throughDescriptor;
      } catch {
        names = undefined; // no /proc: fall back to the checked path
      }
    }
    if (names === undefined) {
      try {
        names = await readdir(resolved);
      } catch (error) {
        throw describeFsError(error, userPath);
      }
    }
    names.sort();
    const shown = names.slice(0, maxEntries);
    const entries = await Promise.all(shown.map(name => describeEntry(directory, name)));
    return {
      path: userPath,
      entries,
      total: names.length,
      truncated: names.length > shown.length,
    };
  } finally {
    await handle.close();
  }
}

export const make = (_powers?: unknown, _context?: unknown, options?: { env?: Env }) => {
  const root = toolRootFromEnv(options?.env, toolName);
  return makeFaeTool({
    name: toolName,
    description:
      'List a directory inside the working directory: each entry with its type (file, dir, symlink, other) and size in bytes.',
    parameters: parameters(listDirParameters),
    returns: '{ path, entries: [{ name, type, size }], total, truncated }',
    help: [
      `type is file, dir, symlink or other; entries are sorted by name, at most ${maxEntries}.`,
      'path is relative to the tool root (default "."); paths outside it are refused.',
    ].join('\n'),
    run: args => listConfined(root, args),
  });
};
harden(make);
