/**
 * The terminal's input cut into keys, one a chunk, for the prompt (sim/chat/one-key-a-chunk.ts,
 * docs/behaviour.md 10.2): Node 20's readline edits several keys in one chunk wrongly (each
 * character added at the line's end wherever the cursor is), so a read holding several is cut.
 */
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  makeKeyGrouper,
  makeKeySplitter,
  oneKeyAChunk,
  splitKeys,
} from '../sim/chat/one-key-a-chunk.js';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/** A terminal's input as readline sees one: raw mode asked for and kept. */
const fakeTerminal = () => {
  const input = Object.assign(new PassThrough(), { isTTY: true, isRaw: false });
  const rawModes: boolean[] = [];
  Object.assign(input, {
    setRawMode: (mode: boolean) => {
      rawModes.push(mode);
      input.isRaw = mode;
      return input;
    },
  });
  return { input: input as unknown as NodeJS.ReadStream & PassThrough, rawModes };
};

/** The lines readline reads from a terminal whose reads are `reads`, handed on by oneKeyAChunk. */
const linesRead = (reads: string[]): string[] => {
  const { input } = fakeTerminal();
  const lines: string[] = [];
  const readline = createInterface({
    input: oneKeyAChunk(input) as unknown as NodeJS.ReadableStream,
    output: new PassThrough(),
    terminal: true,
  });
  readline.on('line', line => void lines.push(line));
  for (const read of reads) input.write(read);
  readline.close();
  return lines;
};

describe('splitKeys', () => {
  it('cuts characters one a key and keeps escape sequences whole, parameters and all', () => {
    expect(splitKeys('ab\x1b[D\x1b[1;5C\x1bOA\x1bOP\x1b[3~\x1bb\r').keys).toEqual([
      'a',
      'b',
      '\x1b[D',
      '\x1b[1;5C',
      '\x1bOA',
      '\x1bOP',
      '\x1b[3~',
      '\x1bb',
      '\r',
    ]);
  });

  it("keeps a bracketed paste's markers whole, each a key, and Meta with ESC ESC", () => {
    expect(splitKeys(`${PASTE_START}x\ry${PASTE_END}\x1b\x1b[D\x1b[[A`).keys).toEqual([
      PASTE_START,
      'x',
      '\r',
      'y',
      PASTE_END,
      '\x1b\x1b[D',
      '\x1b[[A',
    ]);
  });

  it('keeps multi-byte characters and emoji (surrogate pairs) whole', () => {
    expect(splitKeys('é😀日\x1b😀').keys).toEqual(['é', '😀', '日', '\x1b😀']);
  });

  it('says which key the text ends in the middle of', () => {
    expect(splitKeys('a\x1b[1;')).toEqual({ keys: ['a'], rest: '\x1b[1;' });
    expect(splitKeys('a\x1b')).toEqual({ keys: ['a'], rest: '\x1b' });
    expect(splitKeys('\x1bO')).toEqual({ keys: [], rest: '\x1bO' });
    expect(splitKeys('\x1b[200')).toEqual({ keys: [], rest: '\x1b[200' });
  });
});

describe('makeKeySplitter', () => {
  it("hands on a cut key's start at once and its rest as one chunk with the next read", () => {
    const split = makeKeySplitter();
    expect(split('ab\x1b[1')).toEqual(['a', 'b', '\x1b[1']);
    expect(split(';5Dc')).toEqual([';5D', 'c']);
    expect(split('\x1b')).toEqual(['\x1b']);
    expect(split('[200~x')).toEqual(['[200~', 'x']);
  });
});

describe('makeKeyGrouper', () => {
  it("hands on a paste's text after its first line break in one chunk, every other key alone", () => {
    const group = makeKeyGrouper();
    const keys = (text: string) => splitKeys(text).keys;
    expect(group(keys(`ab${PASTE_START}xy\rzw\r`))).toEqual([
      'a',
      'b',
      PASTE_START,
      'x',
      'y',
      '\r',
      'zw\r',
    ]);
    // Across reads: the paste goes on, its text still in one chunk a read.
    expect(group(keys('more\rtext'))).toEqual(['more\rtext']);
    // A key that edits breaks it: what follows is a key at a time until the next line break.
    expect(group(keys(`a\x1b[Db\x7fc\rde${PASTE_END}fg\r`))).toEqual([
      'a',
      '\x1b[D',
      'b',
      '\x7f',
      'c',
      '\r',
      'de',
      PASTE_END,
      'f',
      'g',
      '\r',
    ]);
    // Typed, not pasted: a key a chunk, line breaks and all.
    expect(group(keys('hi\rthere\r'))).toEqual(['h', 'i', '\r', 't', 'h', 'e', 'r', 'e', '\r']);
  });
});

describe('oneKeyAChunk', () => {
  it('gives readline one key a chunk: keys read at once edit the line as typed apart', () => {
    expect(linesRead(['abc\x1b[D\x1b[DX\r', 'abcd\x1b[D\x1b[DX\x7fY\r'])).toEqual([
      'aXbc',
      'abYcd',
    ]);
  });

  it('edits a paste as typed apart: its first line goes in at the cursor, a key after it stays a key', () => {
    const read = `abc\x1b[D\x1b[D${PASTE_START}XY\rsecond\rthird${PASTE_END}\x1b[D\x1b[DZ\r`;
    expect(linesRead([read])).toEqual(['aXYbc', 'second', 'thiZrd']);
  });

  it("waits for a character's other bytes when a read cuts it", () => {
    const { input } = fakeTerminal();
    const chunks: string[] = [];
    oneKeyAChunk(input).on('data', (chunk: Buffer) => void chunks.push(chunk.toString('utf8')));
    const bytes = Buffer.from('a😀b', 'utf8');
    input.write(bytes.subarray(0, 3));
    input.write(bytes.subarray(3));
    expect(chunks).toEqual(['a', '😀', 'b']);
  });

  it("passes raw mode and the end of input on to the terminal's input", () => {
    const { input, rawModes } = fakeTerminal();
    const keys = oneKeyAChunk(input);
    let ended = false;
    keys.on('end', () => (ended = true));
    keys.setRawMode(true);
    expect(keys.isRaw).toBe(true);
    keys.setRawMode(false);
    expect(rawModes).toEqual([true, false]);
    input.end();
    input.resume();
    return new Promise<void>(resolve => input.once('end', resolve)).then(() =>
      expect(ended).toBe(true),
    );
  });
});
