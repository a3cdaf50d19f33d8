/**
 * An answer in a channel, as the agent's own member, in the thread of the
 * message it answers. Live progress as in the inbox (LAL_PROGRESS,
 * LAL_PROGRESS_AFTER_MS): an answer that takes longer than the setting gets
 * a placeholder posted as a reply, edited (`replyType: 'edit'`, a new
 * message revising it) as the model's text grows, at most once a second
 * (../progress/throttled-edits.ts), and finally into the answer; a quicker
 * one is one plain reply, so progress puts no round trip before it. The
 * model is asked once, offered what the channel's facet holds (no tool:
 * src/parties/facets.ts); a call it makes anyway names nothing the turn
 * holds and is not run. Its one effect is this post.
 */
import { E } from '@endo/far';
import type { ChatMessage, Provider, Usage } from '../../providers/types.js';
import type { Clock } from '../lifecycle/clock.js';
import { makeThrottledEdits, textContent } from '../progress/throttled-edits.js';
import { stripThinking } from '../reply/strip-thinking.js';
import type { ChannelFacet } from '../parties/facets.js';
import { postsOf, type MemberHandle } from './channel-view.js';

const PLACEHOLDER = 'Thinking…';
const EDIT_GAP_MS = 1_000;
const FAILED = 'I could not answer this (something went wrong on my side).';

/** The placeholder once posted: its number (undefined when it cannot be found), or why it failed. */
type Posted = { number: bigint | undefined } | { failed: unknown };

export const answerInChannel = async (options: {
  member: MemberHandle;
  ownMemberId: string;
  /** The request, built from the channel's thread (./channel-thread.ts). */
  request: ChatMessage[];
  /** What the channel's turn holds. */
  facet: Pick<ChannelFacet, 'offer' | 'holds'>;
  /** Told of the tools a reply called that the turn does not hold (none was run). */
  onNotHeld: (names: string[]) => void;
  provider: Provider;
  clock: Clock;
  answering: bigint;
  /** How long before the placeholder is posted; undefined: never (live progress off). */
  placeholderAfterMs: number | undefined;
  signal?: AbortSignal;
  onEditError: (error: unknown) => void;
  /** The model's text so far, as it streams (for a host that shows progress). */
  onText?: (text: string) => void;
}): Promise<{ answer: string; usage: Usage | undefined; model: string }> => {
  const { member, answering, clock } = options;
  const replyTo = String(answering);
  let placeholder: Promise<Posted> | undefined;
  const postPlaceholder = () => {
    placeholder ??= (async (): Promise<Posted> => {
      try {
        await E(member).post([PLACEHOLDER], [], [], replyTo);
        const own = (await postsOf(member)).findLast(
          post =>
            post.memberId === options.ownMemberId &&
            post.replyTo === replyTo &&
            post.replyType === undefined,
        );
        return { number: own?.number };
      } catch (failed) {
        return { failed };
      }
    })();
  };
  const after = options.placeholderAfterMs;
  // At once when the setting is 0: posted beside the model call, never after it.
  if (after === 0) postPlaceholder();
  const cancelPlaceholder =
    after === undefined || after === 0 ? () => {} : clock.at(clock.now() + after, postPlaceholder);
  const edits = makeThrottledEdits({
    clock,
    gapMs: EDIT_GAP_MS,
    // Without its placeholder found, the answer alone goes, as a plain reply; a placeholder
    // the channel refused is that refusal, said once, not a second post.
    write: async (content, done) => {
      const posted = placeholder === undefined ? undefined : await placeholder;
      if (posted !== undefined && 'failed' in posted) throw posted.failed;
      if (posted?.number !== undefined)
        await E(member).post(content.strings, [], [], String(posted.number), [], 'edit');
      else if (done) await E(member).post(content.strings, [], [], replyTo);
    },
    onError: options.onEditError,
  });
  let result;
  try {
    result = await options.provider.chat(options.request, options.facet.offer(), {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onText: text => {
        options.onText?.(text);
        if (placeholder !== undefined) edits.show(stripThinking(text).trim() || PLACEHOLDER);
      },
    });
  } catch (error) {
    cancelPlaceholder();
    // A placeholder left saying "Thinking…" would never be answered: it says the turn failed
    // (why is for the HOST's log: the channel's members are not told the agent's errors).
    if (placeholder !== undefined) await edits.finish(textContent(FAILED));
    throw error;
  }
  cancelPlaceholder();
  const notHeld = (result.message.toolCalls ?? [])
    .map(call => call.name)
    .filter(name => !options.facet.holds([name]));
  if (notHeld.length > 0) options.onNotHeld(notHeld);
  const answer = stripThinking(result.message.content).trim() || '(no answer)';
  if (!(await edits.finish(textContent(answer))))
    throw new Error('the answer could not be written into the channel');
  return { answer, usage: result.usage, model: result.model ?? options.provider.model };
};
harden(answerInChannel);
