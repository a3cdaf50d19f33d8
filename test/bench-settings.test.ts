// The bench's settings (docs/configuration.md, "For developers"): a wrong BENCH_ONLY or
// BENCH_EXCHANGES is named in one line before anything runs (a misspelt BENCH_ONLY used to run
// the whole bench, some 30 s to minutes, as if it were unset).
import { describe, expect, it } from 'vitest';
import { readBenchSettings } from '../bench/bench-settings.js';
import { SINGLE_FIGURES } from '../bench/usage.js';

describe('the bench settings', () => {
  it('runs every figure over 1,000 exchanges when nothing is set', () => {
    expect(readBenchSettings({})).toEqual({ exchanges: 1000, only: undefined });
    expect(readBenchSettings({ BENCH_ONLY: '' })).toEqual({ exchanges: 1000, only: undefined });
  });

  it('reads each figure BENCH_ONLY may name, and a shorter conversation', () => {
    for (const name of Object.keys(SINGLE_FIGURES))
      expect(readBenchSettings({ BENCH_ONLY: name, BENCH_EXCHANGES: '200' })).toEqual({
        exchanges: 200,
        only: name,
      });
  });

  it('names the figures there are when BENCH_ONLY names none', () => {
    expect(() => readBenchSettings({ BENCH_ONLY: 'economi' })).toThrow(
      'BENCH_ONLY must be one of ["modelCalls","overhead","discovery","memory","economy","mcp","recall","threads","host-wait","approvals","schedules","toolbox","delegation","realDaemon","channels"], got "economi"',
    );
    expect(() => readBenchSettings({ BENCH_ONLY: 'toString' })).toThrow(/got "toString"/);
  });

  it('refuses a conversation shorter than 200 exchanges or not a whole number', () => {
    for (const raw of ['199', '250.5', 'many', '-1000'])
      expect(() => readBenchSettings({ BENCH_EXCHANGES: raw })).toThrow(
        `BENCH_EXCHANGES must be a whole number ≥ 200, got "${raw}"`,
      );
  });
});
