/**
 * `reply` to a message that is gone (docs/behaviour.md 3.10): only the message the turn serves
 * falls back to a new message to its sender; any other number is the model's mistake and comes
 * back as the tool's error, sent to nobody.
 */
import { describe, expect, test } from 'vitest';
import { runReply } from '../src/builtin-tools/groups/messages.js';
import type { BuiltinContext, Speak } from '../src/builtin-tools/builtin-context.js';

const speakerThat = (replyFails: boolean) => {
  const said: string[] = [];
  const speak: Speak = {
    reply: async (number, strings) => {
      if (replyFails) throw Error(`No such message with number ${number}`);
      said.push(`reply #${number}: ${strings.join('')}`);
    },
    send: async (recipient, strings) => {
      said.push(`send ${recipient}: ${strings.join('')}`);
    },
  };
  return { speak, said };
};

const contextFor = (speak: Speak, origin?: BuiltinContext['origin']) =>
  ({ speak, origin }) as BuiltinContext;

describe('reply to a message that is gone', () => {
  test("the turn's own message gone: its sender hears the words as a new message", async () => {
    const { speak, said } = speakerThat(true);
    const result = await runReply(
      { messageNumber: 4n, strings: ['42'] } as never,
      contextFor(speak, { number: 4n, sender: 'alice' }),
    );
    expect(said).toEqual(['send alice: 42']);
    expect(result).toEqual({ replied: true, to: 4n, sentTo: 'alice', why: '#4 is gone' });
  });

  test("another number gone: the tool's error, and nobody is written to", async () => {
    const { speak, said } = speakerThat(true);
    await expect(
      runReply(
        { messageNumber: 6n, strings: ['42'] } as never,
        contextFor(speak, { number: 4n, sender: 'alice' }),
      ),
    ).rejects.toThrow('No such message with number 6');
    await expect(
      runReply({ messageNumber: 6n, strings: ['42'] } as never, contextFor(speak)),
    ).rejects.toThrow('No such message with number 6');
    expect(said).toEqual([]);
  });

  test('a reply that lands is one reply, no fallback', async () => {
    const { speak, said } = speakerThat(false);
    const result = await runReply(
      { messageNumber: 4n, strings: ['42'] } as never,
      contextFor(speak, { number: 4n, sender: 'alice' }),
    );
    expect(said).toEqual(['reply #4: 42']);
    expect(result).toEqual({ replied: true, to: 4n });
  });
});
