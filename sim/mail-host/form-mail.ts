/** Newest daemon: forms (fields to fill in) and their answers (a value message). */
import { namePathFrom, quote } from './pet-name.js';
import type { Agent } from './agents.js';
import type { MailBasics } from './mail-basics.js';
import type { FormField, NameOrPath } from './types.js';

export const makeFormMail = ({ table, agents, randomHex512, mustGet, post }: MailBasics) => {
  /** Sends a form to a recipient. */
  const form = async (
    self: Agent,
    recipientNameOrPath: NameOrPath,
    description: string,
    fields: readonly FormField[],
  ) => {
    const toPath = namePathFrom(recipientNameOrPath);
    const toId = await self.directory.identify(...toPath);
    if (toId === undefined) throw Error(`Unknown recipient ${toPath.join('/')}`);
    const recipient = agents.recipientFor(toId, recipientNameOrPath);
    post(
      self,
      recipient,
      harden({
        type: 'form',
        from: self.handleId,
        to: toId,
        messageId: randomHex512(),
        description,
        fields,
      }),
    );
  };

  /** Answers a form with values (defaults filled in; every field must have a string). */
  const submit = async (self: Agent, number: bigint, given: Record<string, unknown>) => {
    const record = mustGet(self, number);
    if (record.type !== 'form')
      throw Error(`Message ${quote(String(number))} is not a form (is ${quote(record.type)})`);
    const values: Record<string, unknown> = {};
    for (const field of record.fields)
      if (field.default !== undefined) values[field.name] = field.default;
    Object.assign(values, given);
    for (const field of record.fields) {
      if (values[field.name] === undefined)
        throw Error(`Missing value for field ${quote(field.name)}`);
      if (typeof values[field.name] !== 'string')
        throw Error(`field ${quote(field.name)}: Must be a string`);
    }
    const value = harden(values);
    const valueId = table.formulate({ type: 'marshal', provide: () => value });
    table.remember(value, valueId);
    const sender = agents.recipientFor(record.from, record.from);
    post(
      self,
      sender,
      harden({
        type: 'value',
        from: self.handleId,
        to: record.from,
        messageId: randomHex512(),
        replyTo: record.messageId,
        valueId,
      }),
    );
  };

  return harden({ form, submit });
};
harden(makeFormMail);
