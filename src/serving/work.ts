/**
 * What the agent's single serving loop does next: a message, the outcomes
 * that arrived (notices), a wake-up that fell due, or a forget() or the
 * HOST's hand on the schedules between turns; and the lane each waits in (../work-queue.ts): a message in its
 * sender's, first when it is from the HOST or a trusted sender, the
 * agent's own work in a first lane of its own.
 */
import type { MessageRecord } from '../mail/message-record.js';
import type { Lane } from './work-queue.js';
import type { ChannelWork } from '../channels/channel-thread.js';

export type MailWork = { kind: 'mail'; message: MessageRecord; lane?: Lane };

export type Work =
  | MailWork
  | ChannelWork
  | { kind: 'notices' }
  | { kind: 'wake'; id: string }
  | { kind: 'forget'; done: (said: string) => void }
  | ScheduleControl;

/** The HOST's hand on the schedules (list, pause, resume, revoke), between turns. */
type ScheduleControl = {
  kind: 'schedules';
  action: string;
  id: string | undefined;
  done: (said: string) => void;
  fail: (error: unknown) => void;
};

const OWN_LANE: Lane = harden({ key: 'the agent itself', first: true });

export const laneOfWork = (work: Work): Lane => {
  // A channel's messages wait in its own lane, behind the HOST's and never before it (behaviour 10.3).
  if (work.kind === 'channel') return { key: `channel ${work.key}`, first: false };
  if (work.kind !== 'mail') return OWN_LANE;
  // A message whose sender could not be read waits with the others, in a lane by what it says.
  return work.lane ?? { key: String(work.message.from), first: false };
};
harden(laneOfWork);
