/**
 * Keeps the first `capBytes` bytes of a stream and counts the rest, so a
 * command that prints gigabytes costs the worker only the cap in memory.
 */
import { capMarker, decodeUtf8Prefix } from './output-cap.js';

export interface OutputCollector {
  add(chunk: Uint8Array): void;
  /** The kept text, with the cut marker when bytes were dropped. */
  text(): string;
  readonly totalBytes: number;
}

export const makeOutputCollector = (capBytes: number): OutputCollector => {
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let totalBytes = 0;
  return {
    add(chunk) {
      totalBytes += chunk.length;
      // One byte past the cap is kept so a cut character can be detected.
      const room = capBytes + 1 - keptBytes;
      if (room <= 0) return;
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      kept.push(part);
      keptBytes += part.length;
    },
    text() {
      const bytes = Buffer.concat(kept);
      if (totalBytes <= capBytes) return bytes.toString('utf8');
      const shown = decodeUtf8Prefix(bytes, capBytes);
      return shown + capMarker(Buffer.byteLength(shown, 'utf8'), totalBytes);
    },
    get totalBytes() {
      return totalBytes;
    },
  };
};
harden(makeOutputCollector);
