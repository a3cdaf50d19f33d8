/**
 * What the agent's single serving loop does next: a message, the outcomes
 * that arrived (notices), a wake-up that fell due, or a forget() between
 * turns; and the lane each waits in (../work-queue.ts): a message in its
 * sender's, first when it is from the HOST or a trusted sender, the
 * agent's own work in a first lane of its own.
 */
import type { MessageRecord } from '../mail/message-record.js';
import type { Lane } from './work-queue.js';

export type MailWork = { kind: 'mail'; message: MessageRecord; lane?: Lane };

export type Work =
  | MailWork
  | { kind: 'notices' }
  | { kind: 'wake'; id: string }
  | { kind: 'forget'; done: (said: string) => void };

const OWN_LANE: Lane = harden({ key: 'the agent itself', first: true });

export const laneOfWork = (work: Work): Lane => {
  if (work.kind !== 'mail') return OWN_LANE;
  // A message whose sender could not be read waits with the others, in a lane by what it says.
  return work.lane ?? { key: String(work.message.from), first: false };
};
harden(laneOfWork);
