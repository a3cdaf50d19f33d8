/**
 * An outcome named in words (src/asks/outcome-label.ts): the label a turn that read it carries,
 * and the reason an approval request gives ("this turn has read the outcome of helper h1").
 */
import { describe, expect, it } from 'vitest';
import { outcomeLabel } from '../src/asks/outcome-label.js';

describe('outcomeLabel', () => {
  it("names each outcome by its ask's kind", () => {
    expect(outcomeLabel(['a1'])).toBe('the outcome of approval request a1');
    expect(outcomeLabel(['p12'])).toBe('the outcome of eval-proposal p12');
    expect(outcomeLabel(['r3'])).toBe('the outcome of request r3');
    expect(outcomeLabel(['h2'])).toBe('the outcome of helper h2');
  });

  it('names several in order, and an id of no known kind as it is', () => {
    expect(outcomeLabel(['a1', 'p2'])).toBe('the outcome of approval request a1, eval-proposal p2');
    expect(outcomeLabel(['x7', 'a'])).toBe('the outcome of x7, approval request a');
  });
});
