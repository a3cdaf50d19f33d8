/** Documentation returned by `help()` on the simulated powers. */
const guestHelp: Record<string, string> = {
  '': `EndoGuest - a confined agent with directory and mail capabilities.
Directory: has, identify, reverseIdentify, locate, list, listIdentifiers, followNameChanges,
lookup, lookupById, reverseLookup, write, remove, move, copy, makeDirectory, storeValue.
Mail: listMessages, followMessages, send, reply, dismiss, dismissAll, adopt, request,
resolve, reject. Evaluation: evaluate (an eval-proposal the host grants or not).
Special names: AGENT (these powers), HOST (the host's handle), MAIL, SELF (own handle).
Call help(methodName) for one method.`,
  has: 'has(...path) -> Promise<boolean>: whether the name (path) exists.',
  identify: 'identify(...path) -> Promise<id | undefined>: the formula id a name refers to.',
  reverseIdentify: 'reverseIdentify(id) -> names: the names this agent has for a formula id.',
  locate: 'locate(...path) -> Promise<locator | undefined>: a locator URL for a name.',
  list: 'list(...path) -> Promise<names>: the names in the directory (special names first).',
  listIdentifiers:
    'listIdentifiers(...path) -> Promise<ids>: the distinct formula ids in a directory.',
  followNameChanges: 'followNameChanges() -> iterator of { add, value } / { remove } changes.',
  lookup: 'lookup(nameOrPath) -> Promise<value>: rejects with Unknown pet name for a missing name.',
  lookupById: 'lookupById(id) -> Promise<value>: the value of a formula id.',
  reverseLookup: 'reverseLookup(value) -> Promise<names>: the names of a value.',
  write: 'write(nameOrPath, id): name a formula id.',
  remove: 'remove(...path): forget a name.',
  move: 'move(fromPath, toPath): rename, within or across directories.',
  copy: 'copy(fromPath, toPath): give a value a second name.',
  makeDirectory:
    'makeDirectory(nameOrPath) -> Promise<directory>: always a new, empty directory bound to the name.',
  storeValue: 'storeValue(passable, nameOrPath): store a passable value under a name.',
  listMessages: 'listMessages() -> Promise<messages>: undismissed messages.',
  followMessages: 'followMessages() -> iterator: every undismissed message, then each new one.',
  send: 'send(recipient, strings, edgeNames, petNamesOrPaths): send a package; one edge name per pet name, one string before each value.',
  reply:
    'reply(messageNumber, strings, edgeNames, petNamesOrPaths): reply to the other party of a message.',
  dismiss: 'dismiss(messageNumber): remove a message from the inbox (message numbers are bigints).',
  dismissAll: 'dismissAll(): remove every message from the inbox.',
  adopt: 'adopt(messageNumber, edgeName, petNameOrPath): name a value attached to a message.',
  request:
    'request(recipient, description, responseName?) -> Promise<value>: settles when the recipient answers.',
  resolve: 'resolve(messageNumber, nameOrPath): answer a request with a named value.',
  reject: 'reject(messageNumber, reason?): decline a request.',
  evaluate:
    'evaluate(workerName, source, codeNames, petNamesOrPaths, resultName?) -> Promise<value>: propose code to the host; settles when the host grants it.',
};

export const makeHelp = (extra: Record<string, string> = {}) => {
  const text: Record<string, string> = { ...guestHelp, ...extra };
  return (methodName = ''): string => {
    if (Object.hasOwn(text, methodName)) return text[methodName] as string;
    if (methodName === '') return 'No documentation available for this interface.';
    return `No documentation available for method "${methodName}".`;
  };
};
harden(makeHelp);
