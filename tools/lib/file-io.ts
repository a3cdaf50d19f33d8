/**
 * Whole-file reads and writes through an already-confined FileHandle, shared
 * by readFile, writeFile and editFile.
 */
import type { FileHandle } from 'node:fs/promises';

/** Files larger than this are refused rather than loaded into the worker. */
const maxFileBytes = 32 * 1024 * 1024;
harden(maxFileBytes);

/** Reads a regular text file whole; refuses directories, devices, huge and binary files. */
export const readTextFile = async (
  handle: FileHandle,
  userPath: string,
): Promise<{ text: string; totalBytes: number }> => {
  const stats = await handle.stat();
  if (stats.isDirectory()) throw Error(`is a directory: ${JSON.stringify(userPath)}`);
  if (!stats.isFile()) throw Error(`not a regular file: ${JSON.stringify(userPath)}`);
  if (stats.size > maxFileBytes) {
    throw Error(
      `file too large: ${JSON.stringify(userPath)} is ${stats.size} bytes (limit ${maxFileBytes})`,
    );
  }
  const bytes = new Uint8Array(stats.size);
  let filled = 0;
  while (filled < bytes.length) {
    // eslint-disable-next-line no-await-in-loop -- each partial read or write continues where the previous one stopped
    const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, filled);
    if (bytesRead === 0) break; // the file shrank meanwhile
    filled += bytesRead;
  }
  const content = bytes.subarray(0, filled);
  if (content.includes(0)) {
    throw Error(
      `${JSON.stringify(userPath)} looks binary (it contains NUL bytes); only text is read`,
    );
  }
  return { text: Buffer.from(content).toString('utf8'), totalBytes: filled };
};
harden(readTextFile);

/**
 * Replaces a file's whole content: writes from offset 0, then truncates to
 * the new length (the file is never seen empty in between).
 */
export const writeWholeFile = async (handle: FileHandle, text: string): Promise<number> => {
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    // eslint-disable-next-line no-await-in-loop -- each partial read or write continues where the previous one stopped
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
  await handle.truncate(bytes.length);
  return bytes.length;
};
harden(writeWholeFile);
