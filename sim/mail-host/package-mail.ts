/** Packages (text with named values): send, reply, adopt a value, dismiss. */
import { assertName, assertNames, assertPetNamePath, namePathFrom, quote } from './pet-name.js';
import { assertPackageShape, assertUniqueEdgeNames } from './package-rules.js';
import type { Agent } from './agents.js';
import type { MailBasics } from './mail-basics.js';
import type { FormulaId, NameOrPath } from './types.js';

export const makePackageMail = ({
  agents,
  randomHex512,
  mustGet,
  identifyAll,
  post,
}: MailBasics) => {
  /** Posts a package to both inboxes, with a fresh message id, answering `replyTo` when given. */
  const postPackage = (
    self: Agent,
    recipient: Parameters<MailBasics['post']>[1],
    to: FormulaId,
    content: { strings: readonly string[]; names: readonly string[]; ids: readonly FormulaId[] },
    replyTo: string | undefined,
  ) =>
    post(
      self,
      recipient,
      harden({
        type: 'package',
        ...content,
        messageId: randomHex512(),
        ...(replyTo === undefined ? {} : { replyTo }),
        from: self.handleId,
        to,
      }),
    );

  const send = async (
    self: Agent,
    recipientNameOrPath: NameOrPath,
    strings: readonly string[],
    edgeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    replyToNumber?: bigint,
  ): Promise<void> => {
    const toPath = namePathFrom(recipientNameOrPath);
    assertNames(edgeNames);
    assertUniqueEdgeNames(edgeNames);
    const toId = await self.directory.identify(...toPath);
    if (toId === undefined) throw Error(`Unknown recipient ${quote(recipientNameOrPath)}`);
    const recipient = agents.recipientFor(toId, recipientNameOrPath);
    assertPackageShape(strings, edgeNames, petNamesOrPaths);
    const ids = await identifyAll(self, petNamesOrPaths);
    // Newest daemon: send may name the message it answers (replyTo set only when that message is there).
    const parentId =
      replyToNumber === undefined ? undefined : self.mailbox.get(replyToNumber)?.messageId;
    postPackage(self, recipient, toId, { strings, names: edgeNames, ids }, parentId);
  };

  const reply = async (
    self: Agent,
    number: bigint,
    strings: readonly string[],
    edgeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
  ): Promise<void> => {
    assertNames(edgeNames);
    assertUniqueEdgeNames(edgeNames);
    const parent = mustGet(self, number);
    const otherId = parent.from === self.handleId ? parent.to : parent.from;
    const recipient = agents.recipientFor(otherId, otherId);
    assertPackageShape(strings, edgeNames, petNamesOrPaths);
    const ids = await identifyAll(self, petNamesOrPaths);
    postPackage(self, recipient, otherId, { strings, names: edgeNames, ids }, parent.messageId);
  };

  const dismiss = async (self: Agent, number: bigint): Promise<void> => {
    const record = self.mailbox.get(number);
    if (record === undefined) throw Error(`Invalid request number ${number}`);
    await record.dismisser.dismiss();
  };

  const dismissAll = async (self: Agent): Promise<void> => {
    await Promise.all(self.mailbox.list().map(record => record.dismisser.dismiss()));
  };

  const adopt = async (
    self: Agent,
    number: bigint,
    edgeName: NameOrPath,
    petNameOrPath: NameOrPath,
  ) => {
    assertName(edgeName);
    const petNamePath = namePathFrom(petNameOrPath);
    assertPetNamePath(petNamePath);
    const record = mustGet(self, number);
    if (record.type !== 'package') throw Error(`Message must be a package ${number}`);
    const index = record.names.lastIndexOf(edgeName as string);
    if (index === -1)
      throw Error(`No reference named ${quote(edgeName)} in message ${quote(number)}`);
    await self.directory.write(petNamePath, record.ids[index] as FormulaId);
  };

  return harden({ send, reply, dismiss, dismissAll, adopt });
};
harden(makePackageMail);
