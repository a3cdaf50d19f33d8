/**
 * What the newest daemon's agent powers do differently from f0a46042a's:
 * messages carry `endo://` locators (from, to, ids, promiseId), followMessages
 * answers an exo-stream reader, `write` is `storeIdentifier`, a sender may edit
 * its own messages and anyone may read a message's revisions, forms.
 */
import { makeAgentMethods } from './agent-methods.js';
import { formatLocator, idFromLocator } from './locator.js';
import { quote } from './pet-name.js';
import { makeStreamReader } from './stream-reader.js';
import { nameChangesPresenter } from './name-changes.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { MailOps } from './mail-ops.js';
import type { FormField, FormulaId, NameOrPath } from './types.js';

type Fields = Record<string, unknown>;

/** The order the daemon names an agent's special names in. */
const SPECIAL_ORDER = ['@agent', '@self', '@host', '@mail', '@nets', '@planes'];

const makeNewestMethods = (agent: Agent, table: FormulaTable, mail: MailOps) => {
  const { directory, mailbox } = agent;
  const locatorOf = (id: unknown): unknown =>
    typeof id === 'string' && id.includes(':')
      ? formatLocator(id, table.typeOf(id) ?? 'remote')
      : id;
  /** A record or envelope as the newest daemon shows it: ids written as locators. */
  const externalize = <T>(record: T): T => {
    const fields = record as unknown as Fields;
    return harden({
      ...fields,
      from: locatorOf(fields.from),
      to: locatorOf(fields.to),
      ...(Array.isArray(fields.ids) ? { ids: fields.ids.map(locatorOf) } : {}),
      ...(typeof fields.promiseId === 'string' ? { promiseId: locatorOf(fields.promiseId) } : {}),
    }) as unknown as T;
  };
  return {
    storeIdentifier: (nameOrPath: NameOrPath, id: FormulaId) => directory.write(nameOrPath, id),
    locate: async (...path: string[]) => {
      const id = await directory.identify(...path);
      return id === undefined ? undefined : locatorOf(id);
    },
    reverseLocate: async (locator: string) => agent.names.reverseIdentify(idFromLocator(locator)),
    lookupByLocator: async (locator: string) => table.provide(idFromLocator(locator)),
    listMessages: async () => harden(mailbox.list().map(externalize)),
    followMessages: async () => makeStreamReader(mailbox.follow(), externalize),
    followNameChanges: async () =>
      nameChangesPresenter('newest', table)(directory.followNameChanges()),
    send: (
      recipient: NameOrPath,
      strings: string[],
      edgeNames: string[],
      petNames: NameOrPath[],
      replyTo?: bigint,
    ) => mail.send(agent, recipient, strings, edgeNames, petNames, replyTo),
    editMessage: (
      number: bigint,
      strings: string[],
      edgeNames: string[],
      petNames: NameOrPath[],
      options?: { done?: boolean },
    ) => mail.editMessage(agent, number, strings, edgeNames, petNames, options),
    messageHistory: async (number: bigint) =>
      harden(
        mailbox.history(number).map(revision => ({
          envelope: externalize(revision.envelope),
          done: revision.done,
          date: revision.date,
          timestamp: Date.parse(revision.date),
        })),
      ),
    form: (recipient: NameOrPath, description: string, fields: FormField[]) =>
      mail.form(agent, recipient, description, fields),
    evaluate: async (
      workerName: NameOrPath | undefined,
      source: string,
      codeNames: string[],
      petNamesOrPaths: NameOrPath[],
      resultName?: NameOrPath,
    ) => {
      // As the daemon: a special worker name must be one of the agent's own (a guest has no @main).
      if (typeof workerName === 'string' && workerName.startsWith('@')) {
        const rank = (name: string) => (SPECIAL_ORDER.indexOf(name) + 99) % 99;
        const specials = agent.names
          .list()
          .filter(name => name.startsWith('@'))
          .sort((a, b) => rank(a) - rank(b));
        if (!specials.includes(workerName))
          throw Error(
            `Invalid pet name ${quote(workerName)} and not one of ${specials.join(', ')}`,
          );
      }
      return mail.evaluateNow(agent, source, codeNames, petNamesOrPaths, resultName);
    },
  };
};

/**
 * What guests and the host share on the newest daemon: the agent methods without `write` (that
 * daemon names ids with storeIdentifier), its own methods, and `submit` for forms.
 */
export const makeNewestAgentSurface = (
  agent: Agent,
  table: FormulaTable,
  mail: MailOps,
  help: (methodName?: string) => string,
) => {
  const { write: _write, ...shared } = makeAgentMethods(agent, table, mail);
  return {
    help: (methodName?: string) => help(methodName),
    ...shared,
    ...makeNewestMethods(agent, table, mail),
    submit: (number: bigint, values: Record<string, unknown>) => mail.submit(agent, number, values),
  };
};
harden(makeNewestAgentSurface);
