/**
 * Shapes shared by the mail-host modules: formula ids, message records as the
 * daemon hands them to an agent, and the public surface of the simulator.
 */

/** `<128 hex digits>:<128 hex digits>` — a formula number and the node number. */
export type FormulaId = string;

/** The settled state a request or proposal reports. */
export type Settlement = 'fulfilled' | 'rejected';

/** A remote object with one method; marks a message dismissed. */
export interface Dismisser {
  dismiss(): Promise<void>;
}

/** The host's side of an eval-proposal: answers it with a formula id or a rejected promise. */
export interface Responder {
  resolveWithId(idOrRejection: string | Promise<never>): void;
}

/** Fields every message record carries once it is in a mailbox. */
interface MessageBase {
  readonly type: string;
  readonly number: bigint;
  readonly from: FormulaId;
  readonly to: FormulaId;
  readonly date: string;
  readonly messageId: string;
  readonly replyTo?: string | undefined;
  readonly dismissed: Promise<void>;
  readonly dismisser: Dismisser;
  /** Newest daemon only: false while the sender is still writing the message. */
  readonly done?: boolean;
}

export interface PackageMessage extends MessageBase {
  readonly type: 'package';
  readonly strings: readonly string[];
  readonly names: readonly string[];
  readonly ids: readonly FormulaId[];
}

interface RequestMessage extends MessageBase {
  readonly type: 'request';
  readonly description: string;
  readonly promiseId: FormulaId;
  readonly resolverId: FormulaId;
  readonly settled: Promise<Settlement>;
}

interface EvalProposalFields {
  readonly source: string;
  readonly codeNames: readonly string[];
  readonly petNamePaths: readonly (readonly string[])[];
  readonly edgeNames: readonly string[];
  readonly ids: readonly FormulaId[];
  readonly workerName: string | undefined;
  readonly settled: Promise<Settlement>;
  readonly resultId: Promise<FormulaId | undefined>;
  readonly result: Promise<unknown>;
}

/** The reviewer's (normally the host's) copy of an eval-proposal. */
export interface EvalProposalReviewerMessage extends MessageBase, EvalProposalFields {
  readonly type: 'eval-proposal-reviewer';
  readonly responder: Responder;
}

/** The proposer's own copy of an eval-proposal. */
interface EvalProposalProposerMessage extends MessageBase, EvalProposalFields {
  readonly type: 'eval-proposal-proposer';
  readonly resultName: string | undefined;
}

/** Newest daemon: a form the sender asks the recipient to fill in (e.g. Lal's "Add an agent"). */
interface FormMessage extends MessageBase {
  readonly type: 'form';
  readonly description: string;
  readonly fields: readonly FormField[];
}

/** One field of a form. */
export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly default?: string;
  readonly example?: string;
  readonly secret?: boolean;
}

/** Newest daemon: the values submitted for a form, as a reply to it (`valueId` names the record). */
interface ValueMessage extends MessageBase {
  readonly type: 'value';
  readonly valueId: FormulaId;
  readonly replyTo: string;
}

export type MessageRecord =
  | PackageMessage
  | RequestMessage
  | EvalProposalReviewerMessage
  | EvalProposalProposerMessage
  | FormMessage
  | ValueMessage;

/** A message before it is numbered and stamped: what a sender posts. */
export type Envelope =
  | Omit<PackageMessage, 'number' | 'date' | 'dismissed' | 'dismisser'>
  | Omit<RequestMessage, 'number' | 'date' | 'dismissed' | 'dismisser'>
  | Omit<EvalProposalReviewerMessage, 'number' | 'date' | 'dismissed' | 'dismisser'>
  | Omit<EvalProposalProposerMessage, 'number' | 'date' | 'dismissed' | 'dismisser'>
  | Omit<FormMessage, 'number' | 'date' | 'dismissed' | 'dismisser'>
  | Omit<ValueMessage, 'number' | 'date' | 'dismissed' | 'dismisser'>;

/** A name, or a path of names through directories. */
export type NameOrPath = string | readonly string[];

/** Options the host passes to `makeUnconfined`. */
export interface MakeCapletOptions {
  powersName?: string;
  resultName?: NameOrPath;
  env?: Record<string, string>;
}

/** Options of `provideGuest`. */
export interface ProvideGuestOptions {
  /** Host's name → the name the guest will know it by. */
  introducedNames?: Record<string, string>;
  /** Host's pet name for the guest's powers (AGENT), e.g. `profile-for-lal`. */
  agentName?: string;
}

/** The remote iterator `followMessages` resolves to. */
export interface RemoteIterator<T> {
  next(): Promise<IteratorResult<T, undefined>>;
  return(value?: unknown): Promise<IteratorResult<T, undefined>>;
  throw(error?: unknown): Promise<IteratorResult<T, undefined>>;
}

/** A change reported by `followNameChanges`. */
export type NameChange =
  | { readonly add: string; readonly value: { readonly number: string; readonly node: string } }
  | { readonly remove: string };

/** The guest's powers, as a caplet calls them through `E()`. */
export interface GuestPowers {
  help(methodName?: string): string;
  has(...path: string[]): Promise<boolean>;
  identify(...path: string[]): Promise<FormulaId | undefined>;
  reverseIdentify(id: FormulaId): readonly string[];
  locate(...path: string[]): Promise<string | undefined>;
  list(...path: string[]): Promise<readonly string[]>;
  listIdentifiers(...path: string[]): Promise<readonly FormulaId[]>;
  followNameChanges(): Promise<RemoteIterator<NameChange>>;
  lookup(nameOrPath: NameOrPath): Promise<unknown>;
  lookupById(id: FormulaId): Promise<unknown>;
  reverseLookup(value: unknown): Promise<readonly string[]>;
  write(nameOrPath: NameOrPath, id: FormulaId): Promise<void>;
  remove(...path: string[]): Promise<void>;
  move(fromPath: readonly string[], toPath: readonly string[]): Promise<void>;
  copy(fromPath: readonly string[], toPath: readonly string[]): Promise<void>;
  makeDirectory(nameOrPath: NameOrPath): Promise<unknown>;
  storeValue(value: unknown, nameOrPath: NameOrPath): Promise<void>;
  handle(): unknown;
  listMessages(): Promise<readonly MessageRecord[]>;
  followMessages(): Promise<RemoteIterator<MessageRecord>>;
  send(
    recipient: NameOrPath,
    strings: readonly string[],
    edgeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
  ): Promise<void>;
  reply(
    messageNumber: bigint,
    strings: readonly string[],
    edgeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
  ): Promise<void>;
  dismiss(messageNumber: bigint): Promise<void>;
  dismissAll(): Promise<void>;
  adopt(messageNumber: bigint, edgeName: NameOrPath, petName: NameOrPath): Promise<void>;
  request(recipient: NameOrPath, description: string, responseName?: NameOrPath): Promise<unknown>;
  resolve(messageNumber: bigint, nameOrPath: NameOrPath): Promise<void>;
  reject(messageNumber: bigint, reason?: string): Promise<void>;
  evaluate(
    workerName: string | undefined,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    resultName?: NameOrPath,
  ): Promise<unknown>;
  // The newest daemon's methods (absent at f0a46042a, where `write` and `requestEvaluation` are).
  storeIdentifier?(nameOrPath: NameOrPath, id: FormulaId): Promise<void>;
  editMessage?(
    messageNumber: bigint,
    strings: readonly string[],
    edgeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    options?: { done?: boolean },
  ): Promise<void>;
  messageHistory?(
    messageNumber: bigint,
  ): Promise<readonly { envelope: unknown; done: boolean; date: string; timestamp: number }[]>;
  form?(recipient: NameOrPath, description: string, fields: readonly FormField[]): Promise<void>;
  submit?(messageNumber: bigint, values: Record<string, unknown>): Promise<void>;
  lookupByLocator?(locator: string): Promise<unknown>;
  reverseLocate?(locator: string): Promise<readonly string[]>;
  requestEvaluation(
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    resultName?: NameOrPath,
  ): Promise<unknown>;
}

/**
 * The host's powers: the directory and mail methods plus the host-only ones.
 * Its `evaluate` has the guest's signature but runs at once (no proposal).
 */
export interface HostPowers extends Omit<GuestPowers, 'requestEvaluation' | 'submit'> {
  provideGuest(name?: string, options?: ProvideGuestOptions): Promise<unknown>;
  provideWorker(nameOrPath: NameOrPath): Promise<unknown>;
  makeUnconfined(
    workerName: string | undefined,
    specifier: string,
    options?: MakeCapletOptions,
  ): Promise<unknown>;
  cancel(nameOrPath: NameOrPath, reason?: Error): Promise<void>;
  /** Newest daemon only: a new channel named `petName`; its admin object (member id '0'). */
  makeChannel(petName: NameOrPath, proposedName: string): Promise<unknown>;
  grantEvaluate(messageNumber: bigint): Promise<unknown>;
  counterEvaluate(
    messageNumber: bigint,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    workerName?: string,
    resultName?: readonly string[],
  ): Promise<void>;
}

/** The remote `Context` a caplet's `make` receives (call it with `E()`). */
export interface CapletContext {
  id(): FormulaId;
  cancel(reason?: unknown): Promise<void>;
  whenCancelled(): Promise<never>;
  whenDisposed(): Promise<void>;
  addDisposalHook(hook: () => unknown): void;
}

/** A caplet's entry point, as exported by `agent.ts`. */
export type MakeFn = (
  powers: Promise<unknown>,
  context: unknown,
  options: { env: Record<string, string> },
) => unknown;

/** A running caplet. */
export interface CapletHandle {
  /** The caplet's formula id. */
  readonly id: FormulaId;
  /** What `make` returned, as the host sees it (through the loopback). */
  readonly value: unknown;
  /**
   * Cancels the caplet's context (as the daemon does when it collects or cancels the formula);
   * the caplet sees an Error (a text reason becomes its message).
   */
  cancel(reason?: unknown): Promise<void>;
  /** Resolves once this incarnation has been cancelled. */
  readonly cancelled: Promise<void>;
}

export interface StartCapletOptions {
  /** The host's pet name for the guest whose powers the caplet gets, e.g. `profile-for-lal`. */
  powersName: string;
  /** Where the host stores the caplet (e.g. `controller-for-lal`). */
  resultName?: string;
  env?: Record<string, string>;
  /** Caplets on the same worker share one connection to the daemon. */
  workerName?: string;
}

/** A counter-proposal the host sends back for an eval-proposal. */
export interface CounterProposal {
  source: string;
  codeNames?: string[];
  /** Paths in the HOST's namespace. Leave both out to reuse the original endowments. */
  petNamePaths?: string[][];
  workerName?: string;
  resultName?: string;
}

export interface WaitForMessageOptions {
  /** A guest's name in the host's directory; default the host. */
  who?: string;
  timeoutMs?: number;
}

/** What a test or the simulator can see of a guest, bypassing `E()`. */
export interface GuestView {
  /** The guest's SELF (handle) id: what its messages carry in `from`. */
  readonly id: FormulaId;
  /** The guest's AGENT id: its powers. */
  readonly agentId: FormulaId;
  readonly powers: GuestPowers;
  inbox(): MessageRecord[];
  /** Open follows of its mail (a follow ends when the follower calls return()). */
  followers(): number;
}
