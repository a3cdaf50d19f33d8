/**
 * Confinement for the file tools. The root is fixed when a tool is made
 * (the real path of FAE_CWD); a path the model gives is allowed only when its
 * real path — symlinks followed; for a file still to be created, the real
 * path of its nearest existing ancestor — lies inside that root.
 *
 * Refused: NUL bytes, absolute paths, paths whose normalised form climbs out
 * with `..`, sibling-prefix paths (`/srv/app-evil` beside `/srv/app`: the
 * check is `path.relative`, never a bare `startsWith`), and symlinks whose
 * target lies outside. A symlink inside the root to somewhere inside is fine.
 *
 * Time of check vs time of use: a process with write access inside the root
 * could swap a checked component for a symlink before it is used. `openInside`
 * narrows that window: it opens with O_NOFOLLOW (the last component cannot be
 * a symlink) and then, on Linux, reads back where the open descriptor really
 * points (/proc/self/fd) and refuses it if that is outside the root. A file
 * or directory is created only inside a directory held open and checked
 * first (through /proc/self/fd/<dir>/<name>, Linux's openat), so nothing is
 * ever made outside the root, even for a moment.
 *
 * Hard links: a regular file with more than one name may be a hard link to a
 * file outside the root (its other names cannot be found), so it is neither
 * read nor written.
 */
import { b, Fail, makeError, q, X } from '@endo/errors';
import { constants, realpathSync, statSync } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../../providers/types.js';
import { describeFsError } from './fs-error.js';

/** Reads and checks FAE_CWD once, when a file tool is made; returns its real path. */
export const toolRootFromEnv = (env: Env | undefined, toolName: string): string => {
  const configured = env?.FAE_CWD;
  if (configured === undefined || configured === '') {
    throw makeError(
      X`${b(toolName)}: FAE_CWD is not set; the file tools need it to name their root directory`,
    );
  }
  path.isAbsolute(configured) ||
    Fail`${b(toolName)}: FAE_CWD must be an absolute path, got ${q(configured)}`;
  let root: string;
  try {
    root = realpathSync(configured);
  } catch {
    throw makeError(X`${b(toolName)}: FAE_CWD does not exist: ${q(configured)}`);
  }
  statSync(root).isDirectory() ||
    Fail`${b(toolName)}: FAE_CWD is not a directory: ${q(configured)}`;
  return root;
};
harden(toolRootFromEnv);

/** True when `candidate` (absolute) is `root` itself or lies below it. */
export const isInside = (root: string, candidate: string): boolean => {
  // '' (the root itself) passes every test below.
  const relative = path.relative(root, candidate);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
};
harden(isInside);

function escapeError(userPath: string, why: string, cause?: unknown): Error {
  return Error(
    `path escapes the tool root: ${JSON.stringify(userPath)} (${why})`,
    cause === undefined ? undefined : { cause },
  );
}

/** A Node fs error's code (ENOENT…); undefined for the errors made here, already described. */
function errorCode(error: unknown): string | undefined {
  const code: unknown = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

async function existsAsLink(candidate: string): Promise<boolean> {
  try {
    await lstat(candidate);
    return true;
  } catch {
    return false;
  }
}

export interface ResolveOptions {
  /** The path may not exist yet: check its nearest existing ancestor instead. */
  forCreate?: boolean;
}

/**
 * Resolves `userPath` (relative to `root`, which must already be a real path)
 * to an absolute real path inside the root, or rejects with a clear Error.
 * With `forCreate`, the missing tail of the path is appended to the real path
 * of the nearest ancestor that exists.
 */
export const resolveInside = async (
  root: string,
  userPath: unknown,
  { forCreate = false }: ResolveOptions = {},
): Promise<string> => {
  if (typeof userPath !== 'string') {
    throw Error(`path must be a string, got ${userPath === null ? 'null' : typeof userPath}`);
  }
  if (userPath === '') throw Error('path must not be empty');
  if (userPath.includes('\0')) throw escapeError(userPath, 'it contains a NUL byte');
  if (path.isAbsolute(userPath)) {
    throw escapeError(userPath, 'absolute paths are refused; give a path relative to the root');
  }
  const lexical = path.resolve(root, path.normalize(userPath));
  if (!isInside(root, lexical)) throw escapeError(userPath, 'it climbs out with ..');

  let existing = lexical;
  const missingTail: string[] = [];
  for (;;) {
    let real: string;
    try {
      // eslint-disable-next-line no-await-in-loop -- one path component at a time, each resolved or opened relative to the one before
      real = await realpath(existing);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP')
        throw Error(`symlink loop in path: ${JSON.stringify(userPath)}`, { cause: error });
      if (code !== 'ENOENT') throw describeFsError(error, userPath);
      // ENOENT while the entry itself exists: a symlink whose target is
      // missing. Its target is unchecked, so it is never written through.
      // eslint-disable-next-line no-await-in-loop -- one path component at a time, each resolved or opened relative to the one before
      if (await existsAsLink(existing)) {
        throw Error(`path goes through a dangling symlink: ${JSON.stringify(userPath)}`, {
          cause: error,
        });
      }
      if (!forCreate) throw describeFsError(error, userPath);
      if (existing === root) throw Error('the tool root no longer exists', { cause: error });
      missingTail.unshift(path.basename(existing));
      existing = path.dirname(existing);
      continue;
    }
    if (!isInside(root, real)) {
      throw escapeError(userPath, 'a symlink leads outside the root');
    }
    return path.join(real, ...missingTail);
  }
};
harden(resolveInside);

/**
 * Checks where an open descriptor really points (Linux: /proc/self/fd) and
 * refuses it if a component was swapped for a symlink out of the root after
 * `resolveInside` checked it. Elsewhere the O_NOFOLLOW open is the guard.
 */
export const assertOpenedInside = async (
  root: string,
  fd: number,
  userPath: string,
): Promise<void> => {
  if (process.platform !== 'linux') return;
  let target: string;
  try {
    target = await readlink(`/proc/self/fd/${fd}`);
  } catch {
    return; // no /proc mounted: nothing more to learn
  }
  const livePath = target.endsWith(' (deleted)') ? target.slice(0, -' (deleted)'.length) : target;
  if (!isInside(root, livePath)) {
    throw escapeError(userPath, 'it was changed to lead outside the root while opening');
  }
};
harden(assertOpenedInside);

export type OpenPurpose = 'read' | 'update' | 'write' | 'directory';

const flagsByPurpose: Readonly<Record<OpenPurpose, number>> = {
  // O_NONBLOCK: opening a FIFO must not hang the tool (regular files ignore it).
  read: constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  update: constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  // No O_TRUNC: the file is truncated only after the descriptor is checked.
  write: constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  directory: constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW,
};

/** A regular file with more than one name may be a hard link to a file outside the root. */
async function assertSingleName(handle: FileHandle, userPath: string): Promise<void> {
  const stats = await handle.stat();
  if (stats.isFile() && stats.nlink > 1) {
    throw escapeError(
      userPath,
      `it is a hard link: the file has ${stats.nlink} names, and another may lie outside the root`,
    );
  }
}

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Whether entries can be opened relative to a held directory (/proc/self/fd/N/name). */
async function canOpenAt(): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  try {
    await lstat('/proc/self/fd');
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens (and, with `create`, makes) the directory `realDir` one component
 * at a time from the root, each step relative to the directory held before
 * it and never following a symlink: `realDir` is a real path, so a symlink
 * on the way means a component was swapped after the check.
 */
async function openDirectoryInside(
  root: string,
  realDir: string,
  userPath: string,
  create: boolean,
): Promise<FileHandle> {
  if (!isInside(root, realDir)) throw escapeError(userPath, 'its directory lies outside the root');
  const parts = path
    .relative(root, realDir)
    .split(path.sep)
    .filter(part => part !== '');
  let dir = await open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const part of parts) {
      const at = `/proc/self/fd/${dir.fd}/${part}`;
      let next: FileHandle;
      try {
        // eslint-disable-next-line no-await-in-loop -- one path component at a time, each resolved or opened relative to the one before
        next = await open(at, DIRECTORY_FLAGS);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT' || !create) throw error;
        // eslint-disable-next-line no-await-in-loop -- one path component at a time, each resolved or opened relative to the one before
        await mkdir(at).catch((mkdirError: unknown) => {
          if (errorCode(mkdirError) !== 'EEXIST') throw mkdirError;
        });
        // eslint-disable-next-line no-await-in-loop -- one path component at a time, each resolved or opened relative to the one before
        next = await open(at, DIRECTORY_FLAGS);
      }
      // eslint-disable-next-line no-await-in-loop -- one path component at a time, each resolved or opened relative to the one before
      await dir.close();
      dir = next;
    }
    await assertOpenedInside(root, dir.fd, userPath);
    return dir;
  } catch (error) {
    await dir.close();
    const code = errorCode(error);
    if (code === 'ELOOP' || code === 'ENOTDIR')
      throw escapeError(userPath, 'a directory on the way became a symlink', error);
    if (error instanceof Error && error.message.startsWith('path escapes')) throw error;
    throw describeFsError(error, userPath);
  }
}

/**
 * Makes the missing directories of `realDir` (a path from `resolveInside`
 * with `forCreate`), each one only inside a directory already checked.
 */
export const makeDirectoriesInside = async (
  root: string,
  realDir: string,
  userPath: string,
): Promise<void> => {
  if (await canOpenAt()) {
    await (await openDirectoryInside(root, realDir, userPath, true)).close();
    return;
  }
  // Without /proc: make them, then check where they ended up.
  try {
    await mkdir(realDir, { recursive: true });
    if (!isInside(root, await realpath(realDir)))
      throw escapeError(userPath, 'its directory moved outside');
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('path escapes')) throw error;
    throw describeFsError(error, userPath);
  }
};
harden(makeDirectoriesInside);

/** Opens (creating if missing) the file `name` inside a directory held open and checked. */
async function openForWrite(root: string, target: string, userPath: string): Promise<FileHandle> {
  if (!(await canOpenAt())) return open(target, flagsByPurpose.write, 0o666);
  const dir = await openDirectoryInside(root, path.dirname(target), userPath, false);
  try {
    return await open(
      `/proc/self/fd/${dir.fd}/${path.basename(target)}`,
      flagsByPurpose.write,
      0o666,
    );
  } finally {
    await dir.close();
  }
}

/**
 * Opens a path confined to the root: resolve, open without following a final
 * symlink, then check the descriptor, and refuse a file with several names
 * (a hard link). For writing, the file is created only inside a directory
 * checked first. `resolvedPath` is given when the caller already resolved it.
 */
export const openInside = async (
  root: string,
  userPath: string,
  purpose: OpenPurpose,
  resolvedPath?: string,
): Promise<FileHandle> => {
  const target = resolvedPath ?? (await resolveInside(root, userPath));
  let handle: FileHandle;
  try {
    handle =
      purpose === 'write'
        ? await openForWrite(root, target, userPath)
        : await open(target, flagsByPurpose[purpose], 0o666);
  } catch (error) {
    const code = errorCode(error);
    // A refusal made on the way (openForWrite's directory) already says what happened.
    if (code === undefined) throw error;
    if (code === 'ELOOP') throw escapeError(userPath, 'it became a symlink while opening', error);
    throw describeFsError(error, userPath);
  }
  try {
    await assertOpenedInside(root, handle.fd, userPath);
    await assertSingleName(handle, userPath);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
};
harden(openInside);
