/** Newest daemon: the sender revises its own package; the recipient's copy is revised too. */
import { assertNames, quote } from './pet-name.js';
import { assertUniqueEdgeNames } from './package-rules.js';
import type { Agent } from './agents.js';
import type { MailBasics } from './mail-basics.js';
import type { NameOrPath } from './types.js';

export const makeEditMessage = ({ agents, mustGet, identifyAll }: MailBasics) => {
  const editMessage = async (
    self: Agent,
    number: bigint,
    strings: readonly string[],
    edgeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    options: { done?: boolean } = {},
  ): Promise<void> => {
    const current = mustGet(self, number);
    if (current.from !== self.handleId)
      throw Error(`Only the original sender may edit message ${quote(number)}`);
    if (current.type !== 'package') {
      throw Error(
        `editMessage currently supports only package messages (message ${quote(number)} is ${quote(current.type)})`,
      );
    }
    assertNames(edgeNames);
    assertUniqueEdgeNames(edgeNames);
    if (petNamesOrPaths.length !== edgeNames.length) {
      throw Error(
        `Edit must have one edge name (${edgeNames.length}) for every pet name (${petNamesOrPaths.length})`,
      );
    }
    if (strings.length < petNamesOrPaths.length)
      throw Error('Edit must have one string before every value delivered');
    const { done = true } = options;
    if (typeof done !== 'boolean') throw Error('editMessage "done" option must be a boolean');
    const ids = await identifyAll(self, petNamesOrPaths);
    const envelope = harden({
      type: 'package' as const,
      strings,
      names: edgeNames,
      ids,
      messageId: current.messageId,
      ...(current.replyTo === undefined ? {} : { replyTo: current.replyTo }),
      from: self.handleId,
      to: current.to,
      done,
    });
    self.mailbox.revise(number, envelope);
    if (current.to === current.from) return;
    const recipient = agents.recipientFor(current.to, current.to);
    const theirs = recipient.mailbox
      .list()
      .find(record => record.messageId === current.messageId && record.from === self.handleId);
    // As in the daemon, an edit of a message the recipient has dismissed fails (after our own copy changed).
    if (theirs === undefined)
      throw Error(`No message with id ${quote(current.messageId)} from sender`);
    recipient.mailbox.revise(theirs.number, envelope);
  };
  return editMessage;
};
harden(makeEditMessage);
