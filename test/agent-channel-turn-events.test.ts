/**
 * A channel answer's turn reports its model call as a mail turn does (docs/behaviour.md 10.5:
 * its turn said and summed up as a mail turn's): the words it streamed end with the model's
 * reply before the turn ends, so a host showing the stream (the simulator) knows the words
 * became the answer it posted, never a reply cut short and not sent (issue 45).
 */
import { describe, expect, test } from 'vitest';
import type { AgentEvent } from '../src/events/agent-events.js';
import { useAgents } from './support/use-agents.js';
import { answer, makeChannelStarter, mentionedBy } from './support/channel-setting.js';

const agents = useAgents();
const startInChannel = makeChannelStarter(agents.start);

/** The events of the turn with this title, from its start to its end. */
const turnEvents = (events: readonly AgentEvent[], title: RegExp): AgentEvent[] => {
  const start = events.findIndex(event => event.kind === 'turn-start' && title.test(event.title));
  const end = events.findIndex(
    (event, index) => index > start && event.kind === 'turn-end' && title.test(event.title),
  );
  return start === -1 || end === -1 ? [] : events.slice(start, end + 1);
};

describe('a channel answer’s turn, as its observers see it', () => {
  test('what streamed is followed by the model’s reply before the turn ends, as in a mail turn', async () => {
    const setting = await startInChannel([answer('Four.')]);
    await mentionedBy(setting, 'what is 2+2? @lal', 'Four.');
    const { run } = setting;
    await expect.poll(() => turnEvents(run.events, /^in channel /).at(-1)?.kind).toBe('turn-end');
    const kinds = turnEvents(run.events, /^in channel /).map(event => event.kind);
    // The answer streamed (its first words), then the reply came whole, then the turn ended.
    expect(kinds).toContain('model-text');
    const lastText = kinds.lastIndexOf('model-text');
    const reply = kinds.indexOf('model-reply', lastText);
    expect(reply).toBeGreaterThan(lastText);
    expect(kinds.at(-1)).toBe('turn-end');
    const replied = turnEvents(run.events, /^in channel /)[reply];
    expect(replied).toMatchObject({ kind: 'model-reply', call: 1, toolCalls: 0 });
  });
});
