/**
 * Two bench figures count what they measure rightly (docs/benchmark.md):
 * figure 11 counts the agent's approvals as it words them now ("While
 * serving message #N from …, Fae asks to call …"), so the four the taint rule
 * adds are seen; figure 4 measures discovery with all fifty tools offered,
 * the toolbox (figure 13) kept out of its way. Both read 0 before. Figure
 * 15's floor is a caplet that asks the model once per ping and replies:
 * every ping to it and to the agent is seen delivered, asked of the model
 * double, answered and replied to (its times are the bench's, never judged here).
 */
import { describe, expect, it } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { approvalsFigure } from '../bench/figure-approvals.js';
import { discoveryFigure } from '../bench/figure-discovery.js';
import { pingAgainstFloor } from '../bench/ping-against-floor.js';

describe('bench figures count what they say', () => {
  it('figure 11 sees the approvals the taint rule adds, and only those', async () => {
    const figure = await approvalsFigure();
    const [total, ...flows] = figure.rows;
    expect(total?.measured).toMatch(/^3 /);
    expect(flows.filter(row => row.measured !== row.target)).toEqual([]);
    expect(flows.filter(row => row.measured === '1').map(row => row.label.trim())).toEqual([
      "a tool's result sent to alice",
      'the inbox told to bob',
      'peer: forward to bob',
    ]);
  });

  it(
    'figure 4 offers all fifty tools it discovers, cold and warm',
    async () => {
      const figure = await discoveryFigure('openai');
      const [cold, warm] = figure.rows;
      expect(cold?.measured).toMatch(/; 50 offered$/);
      expect(warm?.measured).toMatch(/^[^;]+; 0 lookup, .*; 50 offered$/);
    },
    2 * TEST_MS,
  );

  it('figure 15 pings the agent and its model-calling echo alike, each asking the model once', async () => {
    const { agent, floor } = await pingAgainstFloor({ profile: 'newest', persona: 'lal' }, 3);
    for (const medians of [agent, floor]) {
      for (const value of Object.values(medians)) expect(Number.isFinite(value)).toBe(true);
    }
    // The echo asks with the agent's system prompt and tools, the agent with its conversation too.
    expect(floor.requestBytes).toBeGreaterThan(4_000);
    expect(agent.requestBytes).toBeGreaterThan(floor.requestBytes);
  });
});
