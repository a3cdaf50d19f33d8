// A misspelt setting is named with the one it is close to, never silently ignored.
import { describe, expect, it } from 'vitest';
import { unknownSettings } from '../setup/known-settings.js';
import { closestNames } from '../providers/closest-names.js';

describe('unknown settings', () => {
  it('names each unknown LAL_/FAE_ variable with the closest known ones; known ones and others pass', () => {
    expect(
      unknownSettings({
        LAL_HOTS: 'http://x',
        FAE_CDW: '/w',
        LAL_HOST: 'http://y',
        LAL_AUTH_TOKEN_FILE: '/t',
        FAE_SANDBOX_MEMORY_MB: '64',
        LAL_PIN: '0',
        HOME: '/h',
        LAL_ZZZZZZZZZZZZZZZZZZ: '1',
      }),
    ).toEqual([
      'FAE_CDW is not a setting of lal-fae; did you mean FAE_CWD?',
      'LAL_HOTS is not a setting of lal-fae; did you mean LAL_HOST?',
      'LAL_ZZZZZZZZZZZZZZZZZZ is not a setting of lal-fae (see the configuration table)',
    ]);
  });

  it('takes names the caller knows of (a fallback server token variable)', () => {
    expect(unknownSettings({ LAL_BACKUP_KEY: 'x' }, ['LAL_BACKUP_KEY'])).toEqual([]);
  });
});

describe('closestNames', () => {
  it('orders by distance, counts a swap of neighbours once, ignores case, keeps at most max', () => {
    expect(closestNames('mtah', ['myth', 'math', 'path', 'zzzz'])).toEqual(['math']);
    expect(closestNames('recal', ['recent', 'recall', 'recap', 'x'])).toEqual(['recall', 'recap']);
    expect(closestNames('a', ['b', 'c', 'd', 'e'], 2)).toEqual(['b', 'c']);
    expect(closestNames('MATH', ['math-tool', 'other'])).toEqual(['math-tool']);
    expect(closestNames('math', ['math'])).toEqual([]);
    expect(closestNames('abc', ['xyz'])).toEqual([]);
    expect(closestNames('ab', ['abcdefgh'])).toEqual([]);
  });
});
