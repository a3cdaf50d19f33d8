/**
 * The conversation behind bench figures 2 and 5 (bench/run-conversation.ts):
 * its heap readings hold only the agent and the mail host, not what the bench
 * or the model server double keep (docs/benchmark.md, figure 5).
 */
import { describe, expect, it } from 'vitest';
import { runConversation } from '../bench/run-conversation.js';

describe('the memory figure’s conversation', () => {
  it('keeps each exchange’s request sizes for figure 2, and none when only memory is measured', async () => {
    const sized = await runConversation({ protocol: 'openai', exchanges: 3, checkpoints: [] });
    expect(sized.sizes.map(size => size.exchange)).toEqual([1, 2, 3]);
    expect(sized.sizes[0]?.requestBytes[0]).toBeGreaterThan(0);
    const memoryOnly = await runConversation({
      protocol: 'openai',
      exchanges: 3,
      checkpoints: [3],
      connection: 'direct',
      keepSizes: false,
    });
    expect(memoryOnly.sizes).toEqual([]);
    expect(memoryOnly.heap.map(checkpoint => checkpoint.exchanges)).toEqual([0, 3]);
  });

  it('empties the model server double’s prompt cache before each reading and says what it held', async () => {
    const run = await runConversation({
      protocol: 'openai',
      exchanges: 2,
      checkpoints: [2],
      connection: 'direct',
    });
    // Nothing before the first exchange; then the prefixes the two exchanges' requests left.
    expect(run.heap.map(checkpoint => checkpoint.promptCachePrefixes > 0)).toEqual([false, true]);
  });
});
