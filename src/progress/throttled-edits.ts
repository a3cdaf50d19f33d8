/**
 * Edits of one message, at most one a second: a status shown within a
 * second of the last edit waits for that second to pass, and a later status
 * replaces it (the latest wins). The final edit is never held back by the
 * throttle: it goes as soon as an edit already under way has settled, and
 * no status goes after it. Edits are written one at a time, in order; once
 * one fails the rest are not tried. Time comes from a Clock, so a test moves
 * it by hand.
 */
import type { Clock } from '../lifecycle/clock.js';

/** What an edit writes: the message's strings and attached values, as `editMessage` takes them. */
export interface MessageContent {
  strings: string[];
  edgeNames: string[];
  petNames: (string | string[])[];
}

export interface ThrottledEdits {
  /** A status line for the message (still being written). */
  show(text: string): void;
  /** The message's last form; resolves false when it could not be written (or was already finished). */
  finish(content: MessageContent): Promise<boolean>;
  readonly finished: boolean;
}

export const textContent = (text: string): MessageContent => ({
  strings: [text],
  edgeNames: [],
  petNames: [],
});
harden(textContent);

export const makeThrottledEdits = (options: {
  clock: Clock;
  /** The least time between two status edits. */
  gapMs: number;
  /** Writes one edit; `done` is true for the last. */
  write: (content: MessageContent, done: boolean) => Promise<void>;
  /** Told of the first failed edit. */
  onError: (error: unknown) => void;
}): ThrottledEdits => {
  const { clock, gapMs, write, onError } = options;
  let lastEditAt: number | undefined;
  let lastQueued: string | undefined;
  let pending: string | undefined;
  let cancelTimer: (() => void) | undefined;
  let finished = false;
  // Settles true while every edit so far was written.
  let chain: Promise<boolean> = Promise.resolve(true);

  const enqueue = (content: MessageContent, done: boolean): Promise<boolean> => {
    chain = chain.then(async ok => {
      if (!ok) return false;
      try {
        await write(content, done);
        return true;
      } catch (error) {
        onError(error);
        return false;
      }
    });
    return chain;
  };

  const flush = () => {
    cancelTimer = undefined;
    if (finished || pending === undefined) return;
    const text = pending;
    pending = undefined;
    if (text === lastQueued) return;
    lastQueued = text;
    lastEditAt = clock.now();
    void enqueue(textContent(text), false);
  };

  return {
    show(text) {
      if (finished) return;
      if (pending === undefined && text === lastQueued) return;
      pending = text;
      if (lastEditAt === undefined || clock.now() - lastEditAt >= gapMs) {
        cancelTimer?.();
        flush();
      } else if (cancelTimer === undefined) {
        cancelTimer = clock.at(lastEditAt + gapMs, flush);
      }
    },
    finish(content) {
      if (finished) return Promise.resolve(false);
      finished = true;
      cancelTimer?.();
      cancelTimer = undefined;
      pending = undefined;
      return enqueue(content, true);
    },
    get finished() {
      return finished;
    },
  };
};
harden(makeThrottledEdits);
