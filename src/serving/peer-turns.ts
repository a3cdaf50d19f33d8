/**
 * Each party pays its own way (docs/behaviour.md 9.12): a turn the agent
 * starts itself for another party (a wake-up, a trigger, a heartbeat item,
 * an outcome of what it asked or of a helper it made) is that party's turn:
 * held past its bounds like its mail (the HOST told once), else counted
 * against them. So one peer message cannot buy an endless chain of turns.
 */
import type { AgentParts } from './agent-parts.js';
import type { Work } from './work.js';

/** Whether a turn for `sender` must wait (its work parked until it may go on); else it is counted now. */
export type PeerTurnHeld = (sender: string | undefined, work: Work) => Promise<boolean>;

export const makePeerTurnHeld = (
  parts: Pick<AgentParts, 'senders' | 'memory' | 'tell' | 'daemon'>,
): PeerTurnHeld => {
  const { senders, tell } = parts;
  const hostName = parts.daemon.names.host;
  return async (sender, work) => {
    if (sender === undefined || sender === hostName) return false;
    const key = parts.memory.senders.find(record => record.name === sender)?.key ?? sender;
    const held = senders.check(key, false);
    if (held === undefined) {
      senders.served(key, sender, false);
      return false;
    }
    const line = senders.hold(key, sender, held, work);
    if (line !== undefined) await tell(undefined, line);
    return true;
  };
};
harden(makePeerTurnHeld);
