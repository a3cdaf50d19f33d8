/**
 * The terminal's input as the prompt reads it: one key (a character, or an escape sequence such
 * as ← or a bracketed paste's marker) a chunk. Node 20's readline edits a chunk of several keys
 * wrongly: it takes every key but a chunk's last as pasted text (`isCompletionEnabled` off) and
 * adds each character to the line's end, wherever the cursor is, after moving the cursor on the
 * screen. Keys arrive in one read whenever the program is slow to read (a busy machine, a slow
 * SSH link): `abc` ← ← `X` Enter showed `› aXc` and sent "abcX" (issue 45, trial 14). Fed one
 * key at a time, it edits as it does for keys typed apart, so the line sent is the line shown
 * (docs/behaviour.md 10.2). Code points are kept whole, not grapheme clusters: readline moves
 * and inserts by code point, and a cluster in one chunk would meet the same fault.
 * A bracketed paste's body is text, not editing keys: after a line break in it the cursor is at
 * the end of an empty line, where adding each character to the line's end is inserting it at the
 * cursor, so from there its plain text goes on in one chunk a read, up to a key that edits (an
 * escape sequence, a control key): a 500-line paste handed on a key at a time took twice as long
 * to take in (issue 45). Its first line, where the cursor may be anywhere, goes a key at a time.
 */
import { EventEmitter } from 'node:events';
import { StringDecoder } from 'node:string_decoder';

const ESC = '\x1b';

/** Where the key starting at `at` ends (the index after it), or undefined when `text` ends first. */
const keyEnd = (text: string, at: number): number | undefined => {
  const first = text.codePointAt(at)!;
  if (text[at] !== ESC) return at + (first > 0xffff ? 2 : 1);
  let next = at + 1;
  // ESC ESC …: the same key with Meta (readline reads it so).
  if (text[next] === ESC) next += 1;
  if (next >= text.length) return undefined;
  if (text[next] === '[') {
    next += 1;
    // The Linux console's function keys: ESC [ [ A.
    if (text[next] === '[') return next + 1 < text.length ? next + 2 : undefined;
    // A control sequence (ECMA-48): parameters, intermediates, then one final byte.
    while (next < text.length && /[\x20-\x3f]/.test(text[next]!)) next += 1;
    return next < text.length ? next + 1 : undefined;
  }
  if (text[next] === 'O') {
    // SS3 (the keypad, F1–F4), a modifier digit perhaps before its letter.
    next += 1;
    if (/[0-9]/.test(text[next] ?? '')) next += 1;
    return next < text.length ? next + 1 : undefined;
  }
  // Meta and a key (Alt-b): the key's whole code point.
  return next + ((text.codePointAt(next) ?? 0) > 0xffff ? 2 : 1);
};

/**
 * Splits what was read into keys. `rest` is a key the text ends in the middle of (an escape
 * sequence cut by the read), '' when none.
 */
export const splitKeys = (text: string): { keys: string[]; rest: string } => {
  const keys: string[] = [];
  let at = 0;
  while (at < text.length) {
    const end = keyEnd(text, at);
    if (end === undefined) return { keys, rest: text.slice(at) };
    keys.push(text.slice(at, end));
    at = end;
  }
  return { keys, rest: '' };
};
harden(splitKeys);

/**
 * Cuts each read into keys, a key cut by a read made whole with the next read. A cut key's start
 * is handed on at once (a lone Esc is a key too, and readline waits for the rest of a sequence
 * itself), its rest as one chunk once it comes.
 */
export const makeKeySplitter = (): ((text: string) => string[]) => {
  /** The start of a key handed on, whose end has not come yet. */
  let open = '';
  return text => {
    const { keys, rest } = splitKeys(open + text);
    const chunks = rest === '' ? keys : [...keys, rest];
    if (open !== '' && chunks.length > 0) chunks[0] = chunks[0]!.slice(open.length);
    open = rest;
    return chunks.filter(chunk => chunk !== '');
  };
};
harden(makeKeySplitter);

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** Text readline inserts, or a line break: a key that moves no cursor and edits nothing else. */
const isPlain = (key: string): boolean => {
  const first = key.codePointAt(0) ?? 0;
  return (first >= 0x20 && first !== 0x7f) || key === '\r' || key === '\n';
};

/**
 * Groups keys for readline, a bracketed paste's plain text after a line break in it in one chunk
 * (see above), every other key a chunk of its own. Keeps, across reads, whether a paste is under
 * way and whether the cursor is at the end of the line since its last line break.
 */
export const makeKeyGrouper = (): ((keys: readonly string[]) => string[]) => {
  let pasting = false;
  let atLineEnd = false;
  return keys => {
    const chunks: string[] = [];
    let text = '';
    const flush = () => {
      if (text !== '') chunks.push(text);
      text = '';
    };
    for (const key of keys) {
      if (pasting && atLineEnd && isPlain(key)) {
        text += key;
        continue;
      }
      flush();
      chunks.push(key);
      if (key === PASTE_START || key === PASTE_END) pasting = key === PASTE_START;
      atLineEnd = pasting && (key === '\r' || key === '\n' || (atLineEnd && isPlain(key)));
    }
    flush();
    return chunks;
  };
};
harden(makeKeyGrouper);

/** The terminal's input, for readline: what `source` reads, one key a `data` event (a paste's text in larger ones). */
export interface KeyInput extends EventEmitter {
  readonly isTTY: true;
  readonly isRaw: boolean;
  setRawMode(mode: boolean): this;
  pause(): this;
  resume(): this;
}

/**
 * `source`'s keys, one a chunk. Not hardened: readline keeps its key decoder on the stream it
 * reads. Raw mode, pausing and resuming are the terminal's own; the end of input and errors are
 * passed on.
 */
export const oneKeyAChunk = (source: NodeJS.ReadStream): KeyInput => {
  const decoder = new StringDecoder('utf8');
  const split = makeKeySplitter();
  const group = makeKeyGrouper();
  const keys = new EventEmitter() as KeyInput;
  Object.assign(keys, {
    isTTY: true,
    setRawMode: (mode: boolean) => {
      source.setRawMode(mode);
      return keys;
    },
    pause: () => {
      source.pause();
      return keys;
    },
    resume: () => {
      source.resume();
      return keys;
    },
  });
  Object.defineProperty(keys, 'isRaw', { get: () => source.isRaw });
  // A multi-byte character cut by the read waits in the decoder for its other bytes.
  source.on('data', (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (const piece of group(split(text))) keys.emit('data', Buffer.from(piece, 'utf8'));
  });
  source.on('end', () => keys.emit('end'));
  source.on('error', (error: unknown) => keys.emit('error', error));
  return keys;
};
harden(oneKeyAChunk);
