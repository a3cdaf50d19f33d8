/**
 * What every kind of mail shares: message look-up by number, pet names
 * resolved to formula ids, delivery to both inboxes and fresh message ids.
 */
import { assertFormulaId } from './formula-id.js';
import { randomNumberOf } from './profile.js';
import { namePathFrom, quote } from './pet-name.js';
import type { Agent, AgentRegistry } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { Envelope, FormulaId, MessageRecord, NameOrPath } from './types.js';

export interface MailBasics {
  readonly table: FormulaTable;
  readonly agents: AgentRegistry;
  /** Playing the newest daemon (else f0a46042a). */
  readonly newest: boolean;
  /** A fresh message id, as long as this daemon generation makes them. */
  readonly randomHex512: () => string;
  /** The message with this number in the agent's inbox, or the daemon's error. */
  mustGet(self: Agent, number: bigint, kind?: string): MessageRecord;
  identifyAll(self: Agent, petNamesOrPaths: readonly NameOrPath[]): Promise<FormulaId[]>;
  post(self: Agent, recipient: Agent, envelope: Envelope): void;
}

export const makeMailBasics = (table: FormulaTable, agents: AgentRegistry): MailBasics => {
  const mustGet = (self: Agent, number: bigint, kind = 'message'): MessageRecord => {
    const record = self.mailbox.get(number);
    if (record === undefined) {
      throw Error(
        kind === 'request'
          ? `Invalid request, ${quote(number)}`
          : `No such message with number ${quote(number)}`,
      );
    }
    return record;
  };

  const identifyAll = (self: Agent, petNamesOrPaths: readonly NameOrPath[]): Promise<FormulaId[]> =>
    Promise.all(
      petNamesOrPaths.map(async petNameOrPath => {
        const id = await self.directory.identify(...namePathFrom(petNameOrPath));
        if (id === undefined) throw Error(`Unknown pet name ${quote(petNameOrPath)}`);
        return assertFormulaId(id);
      }),
    );

  /** Puts the message in the recipient's inbox, then the sender's own copy in its inbox. */
  const post = (self: Agent, recipient: Agent, envelope: Envelope) => {
    recipient.mailbox.deliver(envelope);
    for (const listener of recipient.deliveryListeners) listener();
    if (envelope.from !== envelope.to) self.mailbox.deliver(envelope);
  };

  return harden({
    table,
    agents,
    newest: agents.profile === 'newest',
    randomHex512: randomNumberOf(agents.profile),
    mustGet,
    identifyAll,
    post,
  });
};
harden(makeMailBasics);
