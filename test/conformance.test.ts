// The daemon double against what the real daemons answered to the conformance
// sequence (conformance/recorded/, from `npm run conformance -- --endo …`):
// only the differences listed in docs/daemon-api.md ("Known differences") may show.
import { describe, expect, it } from 'vitest';
import { checkDouble } from '../conformance/check-double.js';
import { CONFORMANCE_USAGE, parseConformanceArgs } from '../conformance/cli-args.js';

describe('the daemon double against the real daemons (npm run conformance)', () => {
  for (const generation of ['f0a46042a', 'newest'] as const) {
    it(`answers the sequence as endo's ${generation} daemon did`, async () => {
      const check = await checkDouble(generation);
      expect(check.steps).toBeGreaterThan(50);
      expect(check.unexpected).toEqual([]);
      expect(check.gone).toEqual([]);
    });
  }
});

describe('the command line of npm run conformance', () => {
  it('compares the recordings when given nothing, and reads --endo, --record and --show', () => {
    expect(parseConformanceArgs([])).toEqual({ kind: 'run', show: false });
    expect(parseConformanceArgs(['--endo', '/tmp/endo', '--record', 'abc123', '--show'])).toEqual({
      kind: 'run',
      endo: '/tmp/endo',
      record: 'abc123',
      show: true,
    });
  });

  it('answers --help with the usage, which names every option', () => {
    expect(parseConformanceArgs(['--show', '--help'])).toEqual({ kind: 'help' });
    for (const option of ['--endo', '--record', '--show', '--help'])
      expect(CONFORMANCE_USAGE).toContain(option);
  });

  it('names an unknown option, and --record without --endo, instead of running', () => {
    const unknown = parseConformanceArgs(['--endo-path', 'x']);
    expect(unknown.kind).toBe('wrong');
    expect(unknown.kind === 'wrong' && unknown.reason).toMatch(/--endo-path/);
    const record = parseConformanceArgs(['--record', 'abc123']);
    expect(record).toEqual({ kind: 'wrong', reason: expect.stringMatching(/needs --endo/) });
  });
});
