/**
 * Follows one joined channel (`followMessages`, never polling): each
 * message is handed on as it comes, the earlier ones first (the stream
 * starts with every message so far; the caller skips those it has seen),
 * and once: a message shown again (numbered no later than one handed on, as
 * a stream that subscribes before it lists shows a message posted while it
 * lists; the inbox's gate drops such repeats too, src/mail/revision-gate.ts)
 * is dropped here, before it can wait in the work queue (issue 46).
 * Stopping closes the stream; a stream that fails (the membership disabled,
 * the daemon gone) ends the watch with one log line.
 */
import { E } from '@endo/far';
import { readStream } from '../daemon/stream-reader-client.js';
import { describeError } from '../../providers/describe-error.js';
import type { Log } from '../log/log.js';
import { isChannelPost, type ChannelPost } from './channel-thread.js';
import type { MemberHandle } from './channel-view.js';

export interface ChannelWatch {
  stop(): void;
  /** Settles when the watch has ended, however. */
  readonly done: Promise<void>;
}

export const watchChannel = (
  member: MemberHandle,
  name: string,
  onPost: (post: ChannelPost) => void,
  log: Log,
): ChannelWatch => {
  let stopped = false;
  let close = () => {};
  const done = (async () => {
    const stream = readStream(await E(member).followMessages());
    close = () => {
      void stream.return(undefined);
    };
    if (stopped) close();
    let last: bigint | undefined;
    for (;;) {
      // eslint-disable-next-line no-await-in-loop -- one message at a time, in order
      const step = await stream.next();
      if (step.done === true || stopped) return;
      if (!isChannelPost(step.value)) continue;
      if (last !== undefined && step.value.number <= last) continue;
      last = step.value.number;
      onPost(step.value);
    }
  })().catch((error: unknown) => {
    if (!stopped) log(`stopped following channel ${name}: ${describeError(error)}`);
  });
  return {
    stop: () => {
      stopped = true;
      close();
    },
    done,
  };
};
harden(watchChannel);
