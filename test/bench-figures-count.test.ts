/**
 * Two bench figures count what they measure rightly (docs/benchmark.md):
 * figure 11 counts the agent's approvals as it words them now ("While
 * serving message #N from …, Fae asks to call …"), so the four the taint rule
 * adds are seen; figure 4 measures discovery with all fifty tools offered,
 * the toolbox (figure 13) kept out of its way. Both read 0 before.
 */
import { describe, expect, it } from 'vitest';
import { approvalsFigure } from '../bench/figure-approvals.js';
import { discoveryFigure } from '../bench/figure-discovery.js';

describe('bench figures count what they say', () => {
  it('figure 11 sees the approvals the taint rule adds, and only those', async () => {
    const figure = await approvalsFigure();
    const [total, ...flows] = figure.rows;
    expect(total?.measured).toMatch(/^4 /);
    expect(flows.filter(row => row.measured !== row.target)).toEqual([]);
    expect(flows.filter(row => row.measured === '1').map(row => row.label.trim())).toEqual([
      "a tool's result sent to alice",
      'the inbox told to bob',
      'peer: forward to bob',
      'peer: adopt my tool',
    ]);
  }, 60_000);

  it('figure 4 offers all fifty tools it discovers, cold and warm', async () => {
    const figure = await discoveryFigure('openai');
    const [cold, warm] = figure.rows;
    expect(cold?.measured).toMatch(/; 50 offered$/);
    expect(warm?.measured).toMatch(/^[^;]+; 0 lookup, .*; 50 offered$/);
  }, 120_000);
});
