/**
 * A small reader for a Python list of calls with keyword arguments,
 * `[name(key=value, …), …]`, whose values are literals only (strings,
 * numbers, True/False/None, lists, tuples, dicts). Anything else — a list
 * comprehension, a positional argument, an expression — is not a call list,
 * and the reader says so by returning undefined.
 */

export interface PythonCall {
  name: string;
  args: Record<string, unknown>;
}

class NotACallList extends Error {}

const fail = (): never => {
  throw new NotACallList();
};

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
};

export const readPythonCallList = (source: string): PythonCall[] | undefined => {
  let at = 0;
  const space = () => {
    while (at < source.length && /\s/.test(source[at] as string)) at += 1;
  };
  const take = (token: string): boolean => {
    space();
    if (!source.startsWith(token, at)) return false;
    at += token.length;
    return true;
  };
  const expect = (token: string) => {
    if (!take(token)) fail();
  };
  const identifier = (): string => {
    space();
    const found = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(source.slice(at));
    if (found === null) return fail();
    at += found[0].length;
    return found[0];
  };
  const string = (): string => {
    const quote = source[at] as string;
    at += 1;
    let out = '';
    while (at < source.length && source[at] !== quote) {
      const char = source[at] as string;
      if (char === '\n') fail();
      if (char === '\\') {
        const next = source[at + 1] ?? '';
        if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(at + 2, at + 6))) {
          out += String.fromCharCode(parseInt(source.slice(at + 2, at + 6), 16));
          at += 6;
          continue;
        }
        out += ESCAPES[next] ?? `\\${next}`;
        at += 2;
        continue;
      }
      out += char;
      at += 1;
    }
    if (at >= source.length) fail();
    at += 1;
    return out;
  };
  const sequence = (close: string, item: () => void) => {
    if (take(close)) return;
    for (;;) {
      item();
      if (take(close)) return;
      expect(',');
      if (take(close)) return;
    }
  };
  const value = (): unknown => {
    space();
    const char = source[at];
    if (char === "'" || char === '"') return string();
    if (char === '[' || char === '(') {
      at += 1;
      const items: unknown[] = [];
      sequence(char === '[' ? ']' : ')', () => items.push(value()));
      return items;
    }
    if (char === '{') {
      at += 1;
      const record: Record<string, unknown> = {};
      sequence('}', () => {
        const key = value();
        if (typeof key !== 'string') fail();
        expect(':');
        record[key as string] = value();
      });
      return record;
    }
    const number = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(at));
    if (number !== null) {
      at += number[0].length;
      return Number(number[0]);
    }
    const word = /^(True|False|None)\b/.exec(source.slice(at));
    if (word === null) return fail();
    at += word[0].length;
    return word[0] === 'None' ? null : word[0] === 'True';
  };
  const call = (): PythonCall => {
    const name = identifier();
    expect('(');
    const args: Record<string, unknown> = {};
    sequence(')', () => {
      const key = identifier();
      expect('=');
      args[key] = value();
    });
    return { name, args };
  };
  try {
    expect('[');
    const calls: PythonCall[] = [];
    sequence(']', () => calls.push(call()));
    space();
    return at === source.length && calls.length > 0 ? calls : undefined;
  } catch (error) {
    if (error instanceof NotACallList) return undefined;
    throw error;
  }
};
harden(readPythonCallList);
