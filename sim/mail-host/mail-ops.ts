/**
 * Mail between agents, following the daemon's mail.js rules: send, reply,
 * dismiss, adopt, requests and their answers, eval-proposals and their grant,
 * rejection and counter-proposal.
 */
import { assertFormulaId } from './formula-id.js';
import { randomNumberOf } from './profile.js';
import { evaluateSource } from './evaluate-source.js';
import { assertName, assertNames, assertPetNamePath, namePathFrom, quote } from './pet-name.js';
import { formulatePromise, makeResponseKit } from './promise-formula.js';
import type { Agent, AgentRegistry } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type {
  FormField,
  Envelope,
  EvalProposalReviewerMessage,
  FormulaId,
  MessageRecord,
  NameOrPath,
  Responder,
} from './types.js';

/** Edge names a message may not use: the daemon reserves them for message fields. */
const reservedEdgeNames = new Set([
  'FROM', 'TO', 'DATE', 'TYPE', 'MESSAGE', 'REPLY', 'DESCRIPTION', 'STRINGS', 'PROMISE', 'RESOLVER',
]);

const assertUniqueEdgeNames = (edgeNames: readonly string[]) => {
  const seen = new Set<string>();
  for (const edgeName of edgeNames) {
    if (reservedEdgeNames.has(edgeName)) throw Error(`Message name ${quote(edgeName)} is reserved`);
    if (seen.has(edgeName)) throw Error(`Message name ${quote(edgeName)} is duplicated`);
    seen.add(edgeName);
  }
};

/** The daemon's rules for a package's parts, checked before any name is resolved. */
const assertPackageShape = (strings: readonly string[], edgeNames: readonly string[], petNames: readonly unknown[]) => {
  if (petNames.length !== edgeNames.length) {
    throw Error(
      `Message must have one edge name (${edgeNames.length}) for every pet name (${petNames.length})`,
    );
  }
  if (strings.length < petNames.length) {
    throw Error('Message must have one string before every value delivered');
  }
};

export const makeMailOps = (table: FormulaTable, agents: AgentRegistry) => {
  const newest = agents.profile === 'newest';
  const randomHex512 = randomNumberOf(agents.profile);
  const mustGet = (self: Agent, number: bigint, kind = 'message'): MessageRecord => {
    const record = self.mailbox.get(number);
    if (record === undefined) {
      throw Error(kind === 'request' ? `Invalid request, ${number}` : `No such message with number ${number}`);
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
    if (envelope.from !== envelope.to) self.mailbox.deliver(envelope);
  };

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
    const parentId = replyToNumber === undefined ? undefined : self.mailbox.get(replyToNumber)?.messageId;
    post(self, recipient, harden({
      type: 'package', strings, names: edgeNames, ids, messageId: randomHex512(),
      ...(parentId === undefined ? {} : { replyTo: parentId }),
      from: self.handleId, to: toId,
    }));
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
    post(self, recipient, harden({
      type: 'package', strings, names: edgeNames, ids, messageId: randomHex512(), replyTo: parent.messageId,
      from: self.handleId, to: otherId,
    }));
  };

  const dismiss = async (self: Agent, number: bigint): Promise<void> => {
    const record = self.mailbox.get(number);
    if (record === undefined) throw Error(`Invalid request number ${number}`);
    await record.dismisser.dismiss();
  };

  const dismissAll = async (self: Agent): Promise<void> => {
    await Promise.all(self.mailbox.list().map(record => record.dismisser.dismiss()));
  };

  const adopt = async (self: Agent, number: bigint, edgeName: NameOrPath, petNameOrPath: NameOrPath) => {
    assertName(edgeName);
    const petNamePath = namePathFrom(petNameOrPath);
    assertPetNamePath(petNamePath);
    const record = mustGet(self, number);
    if (record.type !== 'package') throw Error(`Message must be a package ${number}`);
    const index = record.names.lastIndexOf(edgeName as string);
    if (index === -1) throw Error(`No reference named ${quote(edgeName)} in message ${number}`);
    await self.directory.write(petNamePath, record.ids[index] as FormulaId);
  };

  const request = async (self: Agent, recipientNameOrPath: NameOrPath, description: string, responseName?: NameOrPath) => {
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
    post(self, recipient, harden({
      type: 'request', from: self.handleId, to: toId, messageId: randomHex512(), description, promiseId, resolverId, settled,
    }));
    const resolutionId = await responseId;
    if (responseName !== undefined) await self.directory.write(namePathFrom(responseName), resolutionId);
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
    if (id === undefined) throw TypeError(`No formula exists for the pet name ${quote(nameOrPath)}`);
    // Like the daemon, answering something that is not a request does nothing.
    (await resolverOf(record))?.resolveWithId(id);
  };

  const reject = async (self: Agent, number: bigint, reason = 'Declined') => {
    const record = self.mailbox.get(number);
    // f0a46042a ignores an unknown number; the newest daemon throws.
    if (record === undefined && newest) throw Error(`No such message with number ${quote(String(number))}`);
    if (record === undefined) return;
    // An eval-proposal has no resolver: rejecting it this way does not settle it (as in the daemon).
    const rejection = Promise.reject(harden(Error(reason)));
    rejection.catch(() => {});
    (await resolverOf(record))?.resolveWithId(harden(rejection));
  };

  /** The shared promises of a proposal: settlement, result id and result. */
  const proposalKit = () => {
    const { responseId, settled, responder } = makeResponseKit();
    const resultId = responseId.catch(() => undefined);
    const result = responseId.then(id => table.provide(id)).catch(() => undefined);
    return { responseId, settled, responder, resultId, result };
  };

  /** A guest's evaluate(): an eval-proposal to its host that settles when the host answers. */
  const propose = async (
    self: Agent,
    workerName: string | undefined,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    resultNameOrPath?: NameOrPath,
  ): Promise<unknown> => {
    const petNamePaths = harden(petNamesOrPaths.map(namePathFrom));
    if (petNamePaths.length !== codeNames.length) {
      throw Error(
        `Evaluation must have the same number of code names (${codeNames.length}) as pet names (${petNamePaths.length})`,
      );
    }
    const ids = await identifyAll(self, petNamePaths);
    const edgeNames = harden(petNamePaths.map(path => path.join('.')));
    const resultName = resultNameOrPath ? namePathFrom(resultNameOrPath).join('.') : undefined;
    const toId = self.hostHandleId;
    const host = agents.recipientFor(toId, 'HOST');
    const { responseId, settled, responder, resultId, result } = proposalKit();
    const common = {
      messageId: randomHex512(), source, codeNames, petNamePaths, edgeNames, ids,
      workerName: workerName || undefined, settled, resultId, result, from: self.handleId, to: toId,
    };
    // The proposer's copy arrives first, so it is there before the host sees the proposal.
    if (common.from !== common.to) {
      self.mailbox.deliver(harden({ type: 'eval-proposal-proposer', ...common, resultName }));
    }
    host.mailbox.deliver(harden({ type: 'eval-proposal-reviewer', ...common, responder }));
    const id = await responseId;
    if (resultName) await self.directory.write(resultName.split('.'), id);
    return table.provide(id);
  };

  const mustGetProposal = (self: Agent, number: bigint): EvalProposalReviewerMessage => {
    const record = mustGet(self, number);
    if (record.type !== 'eval-proposal-reviewer') {
      throw Error(`Message ${number} is not an eval-proposal, it is ${quote(record.type)}`);
    }
    return record;
  };

  /** Runs the proposed code with endowments from the proposer's namespace; answers the proposal. */
  const grant = async (self: Agent, number: bigint): Promise<unknown> => {
    const proposal = mustGetProposal(self, number);
    const proposer = agents.agentFor(proposal.from) ?? self;
    const values = await Promise.all(
      proposal.petNamePaths.map(async path => {
        if (path.length === 1) {
          const id = await proposer.directory.identify(path[0] as string);
          if (id === undefined) throw Error(`Unknown pet name ${quote(path[0])} in guest namespace`);
          return table.provide(id);
        }
        return proposer.directory.lookup(path);
      }),
    );
    const value = await evaluateSource(proposal.source, proposal.codeNames, values);
    const id = table.formulate({ type: 'eval', provide: () => value });
    table.remember(value, id);
    proposal.responder.resolveWithId(id);
    return value;
  };

  /** Answers a proposal with a rejection (what a reviewer's responder can do; the CLI's reject cannot). */
  const rejectProposal = async (self: Agent, number: bigint, reason = 'Rejected'): Promise<void> => {
    const proposal = mustGetProposal(self, number);
    const rejection = Promise.reject(harden(Error(reason)));
    rejection.catch(() => {});
    proposal.responder.resolveWithId(harden(rejection) as Promise<never>);
  };

  /** Sends the proposer a counter-proposal: it gets a reviewer copy, we keep a proposer copy. */
  const counter = async (
    self: Agent,
    number: bigint,
    change: {
      source: string;
      codeNames: readonly string[];
      petNamePaths: readonly (readonly string[])[];
      edgeNames: readonly string[];
      ids: readonly FormulaId[];
      workerName: string | undefined;
      resultName: string | undefined;
    },
  ): Promise<void> => {
    const original = mustGetProposal(self, number);
    const proposer = agents.recipientFor(original.from, original.from);
    const { settled, responder } = proposalKit();
    const common = {
      messageId: randomHex512(),
      source: change.source,
      codeNames: change.codeNames,
      petNamePaths: change.petNamePaths,
      edgeNames: change.edgeNames,
      ids: change.ids,
      workerName: change.workerName || undefined,
      settled,
      // The daemon does not track a counter-proposal's result.
      resultId: Promise.resolve(undefined),
      result: Promise.resolve(undefined),
      from: self.handleId,
      to: original.from,
    };
    if (common.from !== common.to) {
      self.mailbox.deliver(harden({ type: 'eval-proposal-proposer', ...common, resultName: change.resultName }));
    }
    proposer.mailbox.deliver(harden({ type: 'eval-proposal-reviewer', ...common, responder }));
  };

  /** The host's counterEvaluate: endowments named in the host's own namespace. */
  const counterEvaluate = async (
    self: Agent,
    number: bigint,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    workerName?: string,
    resultName?: readonly string[],
  ) => {
    const petNamePaths = harden(petNamesOrPaths.map(namePathFrom));
    if (petNamePaths.length !== codeNames.length) {
      throw Error(
        `Counter must have the same number of code names (${codeNames.length}) as pet names (${petNamePaths.length})`,
      );
    }
    const ids = await identifyAll(self, petNamePaths);
    await counter(self, number, {
      source, codeNames, petNamePaths, ids,
      edgeNames: harden(petNamePaths.map(path => path.join('.'))),
      workerName, resultName: resultName ? resultName.join('.') : undefined,
    });
  };

  /** Newest daemon: the sender revises its own package; the recipient's copy is revised too. */
  const editMessage = async (
    self: Agent,
    number: bigint,
    strings: readonly string[],
    edgeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    options: { done?: boolean } = {},
  ): Promise<void> => {
    const current = mustGet(self, number);
    if (current.from !== self.handleId) throw Error(`Only the original sender may edit message ${quote(String(number))}`);
    if (current.type !== 'package') {
      throw Error(`editMessage currently supports only package messages (message ${quote(String(number))} is ${quote(current.type)})`);
    }
    assertNames(edgeNames);
    assertUniqueEdgeNames(edgeNames);
    if (petNamesOrPaths.length !== edgeNames.length) {
      throw Error(`Edit must have one edge name (${edgeNames.length}) for every pet name (${petNamesOrPaths.length})`);
    }
    if (strings.length < petNamesOrPaths.length) throw Error('Edit must have one string before every value delivered');
    const { done = true } = options;
    if (typeof done !== 'boolean') throw Error('editMessage "done" option must be a boolean');
    const ids = await identifyAll(self, petNamesOrPaths);
    const envelope = harden({
      type: 'package' as const, strings, names: edgeNames, ids, messageId: current.messageId,
      ...(current.replyTo === undefined ? {} : { replyTo: current.replyTo }),
      from: self.handleId, to: current.to, done,
    });
    self.mailbox.revise(number, envelope);
    if (current.to === current.from) return;
    const recipient = agents.recipientFor(current.to, current.to);
    const theirs = recipient.mailbox.list().find(record => record.messageId === current.messageId && record.from === self.handleId);
    // As in the daemon, an edit of a message the recipient has dismissed fails (after our own copy changed).
    if (theirs === undefined) throw Error(`No such message with number for edit of ${quote(String(number))} in the recipient's inbox`);
    recipient.mailbox.revise(theirs.number, envelope);
  };

  /** Newest daemon: sends a form (fields to fill in) to a recipient. */
  const form = async (self: Agent, recipientNameOrPath: NameOrPath, description: string, fields: readonly FormField[]) => {
    const toPath = namePathFrom(recipientNameOrPath);
    const toId = await self.directory.identify(...toPath);
    if (toId === undefined) throw Error(`Unknown recipient ${toPath.join('/')}`);
    const recipient = agents.recipientFor(toId, recipientNameOrPath);
    post(self, recipient, harden({ type: 'form', from: self.handleId, to: toId, messageId: randomHex512(), description, fields }));
  };

  /** Newest daemon: answers a form with values (defaults filled in; every field must have a string). */
  const submit = async (self: Agent, number: bigint, given: Record<string, unknown>) => {
    const record = mustGet(self, number);
    if (record.type !== 'form') throw Error(`Message ${quote(String(number))} is not a form (is ${quote(record.type)})`);
    const values: Record<string, unknown> = {};
    for (const field of record.fields) if (field.default !== undefined) values[field.name] = field.default;
    Object.assign(values, given);
    for (const field of record.fields) {
      if (values[field.name] === undefined) throw Error(`Missing value for field ${quote(field.name)}`);
      if (typeof values[field.name] !== 'string') throw Error(`field ${quote(field.name)}: Must be a string`);
    }
    const value = harden(values);
    const valueId = table.formulate({ type: 'marshal', provide: () => value });
    table.remember(value, valueId);
    const sender = agents.recipientFor(record.from, record.from);
    post(self, sender, harden({
      type: 'value', from: self.handleId, to: record.from, messageId: randomHex512(), replyTo: record.messageId, valueId,
    }));
  };

  /** Newest daemon: a guest's evaluate runs at once, endowments from its own namespace. */
  const evaluateNow = async (
    self: Agent,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    resultNameOrPath?: NameOrPath,
  ): Promise<unknown> => {
    if (petNamesOrPaths.length !== codeNames.length) throw Error('Evaluator requires one pet name for each code name');
    const values = await Promise.all(petNamesOrPaths.map(path => self.directory.lookup(path)));
    const value = await evaluateSource(source, codeNames, values);
    const id = table.formulate({ type: 'eval', provide: () => value });
    table.remember(value, id);
    if (resultNameOrPath !== undefined) await self.directory.write(namePathFrom(resultNameOrPath), id);
    return value;
  };

  return harden({
    send, reply, dismiss, dismissAll, adopt, request, resolve, reject,
    propose, grant, rejectProposal, counter, counterEvaluate, mustGetProposal,
    editMessage, form, submit, evaluateNow,
  });
};
export type MailOps = ReturnType<typeof makeMailOps>;
