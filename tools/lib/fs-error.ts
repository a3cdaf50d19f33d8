/**
 * Turns a Node fs error into a message about the path the model gave. Node's
 * own messages hold the absolute real path; the model only needs its own path
 * and what went wrong.
 */

const reasonsByCode: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'a component of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EEXIST: 'already exists',
  ELOOP: 'too many levels of symbolic links',
  ENOTEMPTY: 'directory not empty',
  ENXIO: 'no reader on the other end (a FIFO or device)',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
};

export const describeFsError = (error: unknown, userPath: string): Error => {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  const reason = code === undefined ? undefined : reasonsByCode[code];
  // The cause (which names the real path) stays on this side: make-fae-tool answers the caller
  // with a fresh Error holding only the message.
  if (reason !== undefined) {
    return Error(`${reason}: ${JSON.stringify(userPath)}`, { cause: error });
  }
  const detail = code ?? (error instanceof Error ? error.name : 'unknown error');
  return Error(`file operation failed (${detail}): ${JSON.stringify(userPath)}`, { cause: error });
};
harden(describeFsError);
