/**
 * Output capping shared by the tools: text is cut to a byte budget at a
 * UTF-8 character boundary, with a marker that tells the original size so
 * the model knows something was left out.
 */
import { Buffer } from 'node:buffer';

/** The marker appended to capped text. */
export const capMarker = (shownBytes: number, totalBytes: number): string => {
  return `\n[... output cut: showing the first ${shownBytes} of ${totalBytes} bytes]`;
};
harden(capMarker);

/** Decodes at most `maxBytes` bytes of `bytes`, never splitting a character. */
export const decodeUtf8Prefix = (bytes: Uint8Array, maxBytes: number): string => {
  let end = Math.min(bytes.length, maxBytes);
  // Back off over continuation bytes (10xxxxxx) so a multi-byte character
  // cut in half is dropped whole instead of decoded as U+FFFD.
  if (end < bytes.length) {
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('utf8');
};
harden(decodeUtf8Prefix);

export interface CappedText {
  text: string;
  totalBytes: number;
  truncated: boolean;
}

/** Cuts `text` to `maxBytes` UTF-8 bytes, adding the marker when it was cut. */
export const capText = (text: string, maxBytes: number): CappedText => {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) {
    return { text, totalBytes: bytes.length, truncated: false };
  }
  const kept = decodeUtf8Prefix(bytes, maxBytes);
  return {
    text: kept + capMarker(Buffer.byteLength(kept, 'utf8'), bytes.length),
    totalBytes: bytes.length,
    truncated: true,
  };
};
harden(capText);
