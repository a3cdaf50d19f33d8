/**
 * A channel pays its own way (docs/behaviour.md 11.5): it is a party of its
 * own to the bounds on conversations (../peers/conversation-bounds.ts), so
 * its answers count against its own turns in a row and in an hour, never
 * the HOST's nor a peer's; and the hourly budgets (../usage/) are checked
 * before each of its model calls, the routing request included. A mention
 * that may not be answered now waits with the agent's holds and is answered
 * once it may: the HOST is told once of a held channel, the channel's thread
 * once of a spent budget. A message no one addressed to the agent is not
 * routed while either holds (it is never worth a wait).
 */
import type { QuotaWait } from '../usage/hourly-quota.js';
import { quotaNotice } from '../usage/quota-waits.js';
import type { Clock } from '../lifecycle/clock.js';
import { senderKey } from '../peers/sender-ledger.js';

/** A channel as a party to the bounds: its key among the senders, and how help() shows it. */
export interface ChannelParty {
  readonly key: string;
  readonly name: string;
}

/** The channel's key among the senders: its id as a sender's is kept, marked so no sender's key is it. */
export const channelParty = (channelId: string, name: string): ChannelParty =>
  harden({ key: `channel ${senderKey(channelId)}`, name: `channel "${name}"` });
harden(channelParty);

type Hold = { reason: 'exchanges' } | { reason: 'hourly'; until: number };

/** What the budget needs of the agent's parts, over its kind of work. */
export interface BudgetParts<W> {
  senders: {
    check(key: string, isHost: boolean): Hold | undefined;
    hold(key: string, name: string, hold: Hold, work: W, where?: string): string | undefined;
    served(key: string, name: string, isHost: boolean): void;
  };
  quotaWaits: { check(): QuotaWait | undefined; hold(work: W, wait: QuotaWait): void };
  /** Tells the HOST a line (a held channel). */
  tellHost(line: string): Promise<void>;
  clock: Clock;
}

export interface ChannelBudget<W> {
  /**
   * Before a channel's answer: true to go on (the answer is counted as the channel's turn);
   * false when it waits, `work` held until it may go on. `say` posts a line in the thread
   * (the spent budget, once a mention: not when `told`).
   */
  mayAnswer(
    party: ChannelParty,
    work: W,
    mention: { number: bigint; told: boolean; say(text: string): Promise<void> },
  ): Promise<boolean>;
  /** Before a routing request: false, and nothing asked, while the channel is held or a budget spent. */
  mayRoute(party: ChannelParty): boolean;
}

const WHERE = 'unanswered in their channel';

export const makeChannelBudget = <W>(parts: BudgetParts<W>): ChannelBudget<W> =>
  harden({
    mayAnswer: async (party, work, mention) => {
      const held = parts.senders.check(party.key, false);
      if (held !== undefined) {
        const line = parts.senders.hold(party.key, party.name, held, work, WHERE);
        if (line !== undefined) await parts.tellHost(line);
        return false;
      }
      const wait = parts.quotaWaits.check();
      if (wait !== undefined) {
        parts.quotaWaits.hold(work, wait);
        if (!mention.told) await mention.say(quotaNotice(wait, mention.number, parts.clock.now()));
        return false;
      }
      parts.senders.served(party.key, party.name, false);
      return true;
    },
    mayRoute: party =>
      parts.senders.check(party.key, false) === undefined && parts.quotaWaits.check() === undefined,
  });
harden(makeChannelBudget);
