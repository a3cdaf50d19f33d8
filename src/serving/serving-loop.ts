/**
 * The agent's single serving loop: takes one piece of work at a time, so
 * turns never overlap; a turn that throws never stops the loop, and the
 * sender of its message still hears back; the searchable history and the
 * memory are saved after each. When nothing else waits and nothing a crash
 * must not lose changed (../memory/agent-memory.ts, `writeMayWait`), the
 * save waits a moment first: the answer the piece of work sent travels to
 * its recipient (the daemon delivers it, the recipient's process reads it)
 * without the agent's bookkeeping and the daemon's write of the memory
 * sharing the cores with it (issue 46: on two cores they did, and the
 * write's CPU landed on the answer's path; docs/benchmark.md, "Less daemon
 * work a ping"). Work that comes meanwhile ends the wait.
 */
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { codeSpans } from '../mail/code-spans.js';
import { saveMemory, writeMayWait } from '../memory/agent-memory.js';
import { agentFailed } from './turn-ending.js';
import type { WorkQueue } from './work-queue.js';
import type { AgentParts } from './agent-parts.js';
import { safeDismiss } from './finish-message.js';
import { describeError } from '../../providers/describe-error.js';
import type { MailWork, Work } from './work.js';
import type { ChannelWork } from '../channels/channel-thread.js';

export interface WorkHandlers {
  mail(work: MailWork): Promise<void>;
  /** A message of a joined channel (src/channels/). */
  channel(work: ChannelWork): Promise<void>;
  notices(): Promise<void>;
  wake(id: string): Promise<void>;
  forget(): Promise<string>;
  /** The HOST's hand on the schedules: what was done, or an error for the HOST. */
  schedules(action: string, id: string | undefined): string;
}

/**
 * How long the memory's write waits after a piece of work, at most: the answer's delivery, a few
 * milliseconds on a free core. Measured on the newest daemon at load 11–14 (docs/benchmark.md):
 * with 25 ms the agent's CPU to the answer read 0.88× its own without the wait.
 */
export const ANSWER_FIRST_MS = 25;
harden(ANSWER_FIRST_MS);

/** A wait of `ms` that ends early when `early` settles; its timer is cleared either way. */
const pauseUntil = async (ms: number, early: Promise<void>): Promise<void> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const paused = new Promise<void>(resolve => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([paused, early]);
  } finally {
    clearTimeout(timer);
  }
};

export const runServingLoop = async (options: {
  queue: WorkQueue<Work>;
  signal: AbortSignal;
  powers: PowersRef;
  parts: Pick<AgentParts, 'memory' | 'history' | 'nameOf' | 'tell'>;
  log: Log;
  redact: (text: string) => string;
  handle: WorkHandlers;
  /** The wait before a write that may wait (tests pass their own); `ANSWER_FIRST_MS` by default. */
  answerFirst?: (ms: number, early: Promise<void>) => Promise<void>;
}): Promise<void> => {
  const { queue, signal, powers, parts, log, redact, handle } = options;
  const answerFirst = options.answerFirst ?? pauseUntil;
  /* eslint-disable no-await-in-loop -- one piece of work at a time: turns share one conversation */
  for (;;) {
    const work = await queue.take();
    if (work === undefined || signal.aborted) break;
    try {
      if (work.kind === 'mail') await handle.mail(work);
      else if (work.kind === 'channel') await handle.channel(work);
      else if (work.kind === 'wake') await handle.wake(work.id);
      else if (work.kind === 'forget') work.done(await handle.forget());
      else if (work.kind === 'schedules') {
        try {
          work.done(handle.schedules(work.action, work.id));
        } catch (error) {
          work.fail(error);
        }
      } else await handle.notices();
    } catch (error) {
      // One bad message never stops the loop, and its sender still hears back. A turn's own
      // failure is an outcome its turn told (serve-turn.ts): what lands here failed outside one.
      const why = redact(describeError(error));
      log(`could not serve ${work.kind}: ${why}`);
      if (work.kind === 'mail' && typeof work.message.number === 'bigint') {
        // Never rejects (a name that cannot be had is the sender's short id): a stranger's failure is never sent to the HOST.
        const sender = await parts.nameOf(work.message.from);
        await parts.tell({ number: work.message.number, sender }, codeSpans(agentFailed(why)));
        await safeDismiss(powers, work.message.number);
      }
    }
    // The answer first, when nothing else waits and nothing must be kept at once (above); work
    // pushed meanwhile ends the wait, and so does a cancellation (it closes the queue). The HOST's
    // hand (forget(), the schedules) sends no answer, and what it did is written at once: a
    // conversation forgotten is gone from the store when forget() has said so.
    const handOfHost = work.kind === 'forget' || work.kind === 'schedules';
    if (!signal.aborted && !handOfHost && queue.size() === 0 && writeMayWait(parts.memory))
      await answerFirst(ANSWER_FIRST_MS, queue.arrival());
    if (!signal.aborted) {
      // The history first: the memory's write is the last thing done for a piece of work.
      await parts.history.save();
      await saveMemory(powers, parts.memory, log, redact);
    }
  }
  /* eslint-enable no-await-in-loop */
  // Cancelled: the stopped run's last write, its turn closed, so the run made again knows what the
  // stop ended (an approved call it stopped) and what it spent (issue 45; ../lifecycle/last-write.ts).
  if (signal.aborted) {
    await parts.history.save();
    await saveMemory(powers, parts.memory, log, redact);
  }
};
harden(runServingLoop);
