/** Requests: ask a recipient for a value, and answer (resolve) or decline (reject) one. */
import { formulatePromise } from './promise-formula.js';
import { namePathFrom, quote } from './pet-name.js';
import type { Agent } from './agents.js';
import type { MailBasics } from './mail-basics.js';
import type { MessageRecord, NameOrPath, Responder } from './types.js';

export const makeRequestMail = ({
  table,
  agents,
  newest,
  randomHex512,
  mustGet,
  post,
}: MailBasics) => {
  const request = async (
    self: Agent,
    recipientNameOrPath: NameOrPath,
    description: string,
    responseName?: NameOrPath,
  ) => {
    const toPath = namePathFrom(recipientNameOrPath);
    if (responseName !== undefined) {
      // Asked before and answered: the answer is already named.
      const existing = await self.directory.identify(...namePathFrom(responseName));
      if (existing !== undefined) return table.provide(existing);
    }
    const toId = await self.directory.identify(...toPath);
    if (toId === undefined) throw Error(`Unknown recipient ${toPath.join('.')}`);
    const recipient = agents.recipientFor(toId, recipientNameOrPath);
    const { promiseId, resolverId, responseId, settled } = formulatePromise(table);
    post(
      self,
      recipient,
      harden({
        type: 'request',
        from: self.handleId,
        to: toId,
        messageId: randomHex512(),
        description,
        promiseId,
        resolverId,
        settled,
      }),
    );
    const resolutionId = await responseId;
    if (responseName !== undefined)
      await self.directory.write(namePathFrom(responseName), resolutionId);
    return table.provide(resolutionId);
  };

  const resolverOf = async (record: MessageRecord): Promise<Responder | undefined> => {
    if (!('resolverId' in record) || typeof record.resolverId !== 'string') return undefined;
    return (await table.provide(record.resolverId)) as Responder;
  };

  const resolve = async (self: Agent, number: bigint, nameOrPath: NameOrPath) => {
    const path = namePathFrom(nameOrPath);
    const record = mustGet(self, number, 'request');
    const id = await self.directory.identify(...path);
    if (id === undefined)
      throw TypeError(`No formula exists for the pet name ${quote(nameOrPath)}`);
    // Like the daemon, answering something that is not a request does nothing.
    (await resolverOf(record))?.resolveWithId(id);
  };

  const reject = async (self: Agent, number: bigint, reason = 'Declined') => {
    const record = self.mailbox.get(number);
    // f0a46042a ignores an unknown number; the newest daemon throws.
    if (record === undefined && newest) throw Error(`No such message with number ${quote(number)}`);
    if (record === undefined) return;
    // An eval-proposal has no resolver: rejecting it this way does not settle it (as in the daemon).
    const rejection = Promise.reject(harden(Error(reason)));
    rejection.catch(() => {});
    (await resolverOf(record))?.resolveWithId(harden(rejection));
  };

  return harden({ request, resolve, reject });
};
harden(makeRequestMail);
