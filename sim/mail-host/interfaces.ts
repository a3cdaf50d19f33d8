/** Method guards of the guest's and host's powers, as the daemon declares them. */
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';

const NameShape = M.string();
const NamePathShape = M.arrayOf(NameShape);
const NameOrPathShape = M.or(NameShape, NamePathShape);
const NamesOrPathsShape = M.arrayOf(NameOrPathShape);
const EdgeNamesShape = M.arrayOf(M.string());
const IdShape = M.string();
/**
 * The longest string the daemon's guards take in a message (@endo/patterns' default
 * stringLengthLimit, which Endo's send and reply guards keep): named here so the guard and the
 * simulator's refusal before sending (sim/chat/message-limit.ts) say the same number.
 */
export const MESSAGE_STRING_LIMIT = 100_000;
harden(MESSAGE_STRING_LIMIT);
const MessageStringsShape = M.arrayOf(
  M.string(harden({ stringLengthLimit: MESSAGE_STRING_LIMIT })),
);
// Message numbers are bigints: a JS number fails the guard.
const MessageNumberShape = M.bigint();
// Environment variables: strings only (an undefined or a number fails).
const EnvShape = M.recordOf(M.string(), M.string());

const EvaluateGuard = M.call(
  M.or(NameShape, M.undefined()),
  M.string(),
  M.arrayOf(M.string()),
  NamesOrPathsShape,
)
  .optional(NameOrPathShape)
  .returns(M.promise());

/** Methods the guest and the host share. */
const agentMethods = {
  help: M.call().optional(M.string()).returns(M.string()),
  has: M.call().rest(NamePathShape).returns(M.promise()),
  identify: M.call().rest(NamePathShape).returns(M.promise()),
  reverseIdentify: M.call(IdShape).returns(M.array()),
  locate: M.call().rest(NamePathShape).returns(M.promise()),
  reverseLocate: M.call(M.string()).returns(M.promise()),
  followLocatorNameChanges: M.call(M.string()).returns(M.promise()),
  list: M.call().rest(NamePathShape).returns(M.promise()),
  listIdentifiers: M.call().rest(NamePathShape).returns(M.promise()),
  followNameChanges: M.call().returns(M.promise()),
  lookup: M.call(NameOrPathShape).returns(M.promise()),
  lookupById: M.call(IdShape).returns(M.promise()),
  reverseLookup: M.call(M.any()).returns(M.promise()),
  write: M.call(NameOrPathShape, IdShape).returns(M.promise()),
  remove: M.call().rest(NamePathShape).returns(M.promise()),
  move: M.call(NamePathShape, NamePathShape).returns(M.promise()),
  copy: M.call(NamePathShape, NamePathShape).returns(M.promise()),
  makeDirectory: M.call(NameOrPathShape).returns(M.promise()),
  handle: M.call().returns(M.remotable()),
  listMessages: M.call().returns(M.promise()),
  followMessages: M.call().returns(M.promise()),
  resolve: M.call(MessageNumberShape, NameOrPathShape).returns(M.promise()),
  reject: M.call(MessageNumberShape).optional(M.string()).returns(M.promise()),
  adopt: M.call(MessageNumberShape, NameOrPathShape, NameOrPathShape).returns(M.promise()),
  dismiss: M.call(MessageNumberShape).returns(M.promise()),
  dismissAll: M.call().returns(M.promise()),
  request: M.call(NameOrPathShape, M.string()).optional(NameOrPathShape).returns(M.promise()),
  send: M.call(NameOrPathShape, MessageStringsShape, EdgeNamesShape, NamesOrPathsShape).returns(
    M.promise(),
  ),
  reply: M.call(MessageNumberShape, MessageStringsShape, EdgeNamesShape, NamesOrPathsShape).returns(
    M.promise(),
  ),
  storeValue: M.call(M.any(), NameOrPathShape).returns(M.promise()),
  deliver: M.call(M.record()).returns(),
  evaluate: EvaluateGuard,
};

export const GuestInterface: InterfaceGuard = M.interface('EndoGuest', {
  ...agentMethods,
  requestEvaluation: M.call(M.string(), M.arrayOf(M.string()), NamesOrPathsShape)
    .optional(NameOrPathShape)
    .returns(M.promise()),
  define: M.call(M.string(), M.record()).returns(M.promise()),
  form: M.call(NameOrPathShape, M.string(), M.record())
    .optional(NameOrPathShape)
    .returns(M.promise()),
});

const MakeCapletOptionsShape = M.splitRecord(
  {},
  { powersName: NameShape, resultName: NameOrPathShape, env: EnvShape },
);

export const HostInterface: InterfaceGuard = M.interface('EndoHost', {
  ...agentMethods,
  provideGuest: M.call().optional(NameShape, M.record()).returns(M.promise()),
  provideWorker: M.call(NameOrPathShape).returns(M.promise()),
  makeUnconfined: M.call(M.or(NameShape, M.undefined()), M.string())
    .optional(MakeCapletOptionsShape)
    .returns(M.promise()),
  cancel: M.call(NameOrPathShape).optional(M.error()).returns(M.promise()),
  grantEvaluate: M.call(MessageNumberShape).returns(M.promise()),
  counterEvaluate: M.call(MessageNumberShape, M.string(), M.arrayOf(M.string()), NamesOrPathsShape)
    .optional(M.or(NameShape, M.undefined()), NamePathShape)
    .returns(M.promise()),
});

/**
 * The newest daemon's guest (endo branch agent/iroh-preserve-native-datagram-receivers):
 * `storeIdentifier` instead of `write`, `evaluate` runs at once (no
 * requestEvaluation), message edits and their history, forms, `send` may
 * name the message it answers, locator look-ups.
 */
const { write: _write, evaluate: _evaluate, send: _send, ...sharedWithNewest } = agentMethods;
const newestAgentMethods = {
  ...sharedWithNewest,
  storeIdentifier: M.call(NameOrPathShape, IdShape).returns(M.promise()),
  lookupByLocator: M.call(M.string()).returns(M.promise()),
  send: M.call(NameOrPathShape, MessageStringsShape, EdgeNamesShape, NamesOrPathsShape)
    .optional(MessageNumberShape)
    .returns(M.promise()),
  evaluate: M.call(
    M.or(NameOrPathShape, M.undefined()),
    M.string(),
    M.arrayOf(M.string()),
    NamesOrPathsShape,
  )
    .optional(NameOrPathShape)
    .returns(M.promise()),
  form: M.call(NameOrPathShape, M.string(), M.arrayOf(M.record())).returns(M.promise()),
};

// Both the guest and the host edit, read revisions and answer forms.
const newestMailMethods = {
  editMessage: M.call(MessageNumberShape, MessageStringsShape, EdgeNamesShape, NamesOrPathsShape)
    .optional(M.splitRecord({}, { done: M.boolean() }))
    .returns(M.promise()),
  messageHistory: M.call(MessageNumberShape).returns(M.promise()),
  submit: M.call(MessageNumberShape, M.record()).returns(M.promise()),
};

export const NewestGuestInterface: InterfaceGuard = M.interface('EndoGuest', {
  ...newestAgentMethods,
  ...newestMailMethods,
  define: M.call(M.string(), M.record()).returns(M.promise()),
});

export const NewestHostInterface: InterfaceGuard = M.interface('EndoHost', {
  ...newestAgentMethods,
  ...newestMailMethods,
  provideGuest: M.call().optional(NameShape, M.record()).returns(M.promise()),
  provideWorker: M.call(NameOrPathShape).returns(M.promise()),
  makeUnconfined: M.call(M.or(NameOrPathShape, M.undefined()), M.string())
    .optional(MakeCapletOptionsShape)
    .returns(M.promise()),
  cancel: M.call(NameOrPathShape).optional(M.error()).returns(M.promise()),
  makeChannel: M.call(NameOrPathShape, M.string()).returns(M.promise()),
});
