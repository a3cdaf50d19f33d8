// readSecret: a secret from its variable or from the file `<NAME>_FILE` names.
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { readSecret, secretsFromFiles } from '../providers/read-secret.js';
import { makeRedactor } from '../src/log/log.js';
import { useTempFolders } from './support/temp-folders.js';

const folder = useTempFolders()('secret');
const fileHolding = (name: string, text: string) => {
  const file = path.join(folder, name);
  writeFileSync(file, text, { mode: 0o600 });
  return file;
};

describe('readSecret', () => {
  it('reads the variable, else the file its _FILE variable names (one trailing line break dropped)', () => {
    expect(readSecret({ LAL_AUTH_TOKEN: 'direct-1234' }, 'LAL_AUTH_TOKEN')).toBe('direct-1234');
    const file = fileHolding('token', 'from-file-5678\n');
    expect(readSecret({ LAL_AUTH_TOKEN_FILE: file }, 'LAL_AUTH_TOKEN')).toBe('from-file-5678');
    expect(
      readSecret({ LAL_AUTH_TOKEN: '', LAL_AUTH_TOKEN_FILE: '' }, 'LAL_AUTH_TOKEN'),
    ).toBeUndefined();
  });

  it('refuses both at once, a relative path, a missing or empty file, naming the variable and never the secret', () => {
    const file = fileHolding('both', 'sk-in-file-0000');
    expect(() =>
      readSecret({ LAL_AUTH_TOKEN: 'sk-direct-1111', LAL_AUTH_TOKEN_FILE: file }, 'LAL_AUTH_TOKEN'),
    ).toThrow(/^set LAL_AUTH_TOKEN or LAL_AUTH_TOKEN_FILE, not both$/);
    expect(() => readSecret({ LAL_AUTH_TOKEN_FILE: 'token' }, 'LAL_AUTH_TOKEN')).toThrow(
      /must be an absolute path; got "token"$/,
    );
    // A quoted ~ reaches the program unexpanded: said so.
    expect(() => readSecret({ LAL_AUTH_TOKEN_FILE: '~/key' }, 'LAL_AUTH_TOKEN')).toThrow(
      /got "~\/key" \(a ~ in quotes is not your home folder: quotes stop its expansion, as in a shell; write it unquoted or as \$HOME\)$/,
    );
    expect(() =>
      readSecret({ LAL_AUTH_TOKEN_FILE: path.join(folder, 'missing') }, 'LAL_AUTH_TOKEN'),
    ).toThrow(/LAL_AUTH_TOKEN_FILE names a file that cannot be read \(ENOENT\)/);
    expect(() =>
      readSecret({ LAL_AUTH_TOKEN_FILE: fileHolding('empty', '\n') }, 'LAL_AUTH_TOKEN'),
    ).toThrow(/names an empty file/);
  });

  it('an unreadable file: the error keeps the fs error it was made from as its cause', () => {
    let caught: unknown;
    try {
      readSecret({ LAL_AUTH_TOKEN_FILE: folder }, 'LAL_AUTH_TOKEN');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(/cannot be read \(EISDIR\)/);
    expect((caught as Error).cause).toMatchObject({ code: 'EISDIR' });
  });

  it('the redactor hides a secret that only a file holds', () => {
    const file = fileHolding('hidden', 'sk-only-in-a-file-4242\n');
    const env = { LAL_AUTH_TOKEN_FILE: file, LAL_MODEL: 'm' };
    expect(secretsFromFiles(env, name => /TOKEN/.test(name))).toEqual(['sk-only-in-a-file-4242']);
    expect(makeRedactor(env)('the key sk-only-in-a-file-4242 leaked')).toBe(
      'the key [redacted] leaked',
    );
  });
});
