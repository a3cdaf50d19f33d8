/**
 * `npm start`: a terminal chat with Lal or Fae, the person being their HOST,
 * in the local double of the Endo daemon. Lockdown comes first, as in the
 * daemon's workers. What start-up settles (./start-up.ts: the flags, the
 * settings, the state folder's lock, the model server) comes before the chat
 * and the agent are loaded (./chat.ts): a second run on a state folder in use
 * refuses at once, as README says, without loading the program first.
 */
// As the daemon's worker does (worker-node.js at f0a46042a).
import '@endo/init';
import { startUp } from './start-up.js';
import { holdEarlyKeys } from './early-keys.js';
import { describeError } from '../../providers/describe-error.js';
import { printLines } from './print-lines.js';
import { leaveBeforeChat } from './leave-before-chat.js';

const main = async (): Promise<void> => {
  // From the first moment, a Ctrl-C leaves as every way out does, until the chat takes that over.
  const early = leaveBeforeChat();
  // From the first moment: a line typed during the checks is not echoed by the terminal too.
  const earlyKeys = holdEarlyKeys(process.stdin, process.stdout);
  const started = await startUp(process.cwd(), process.argv.slice(2), early.known);
  const { runChat } = await import('./chat.js');
  await runChat(started, earlyKeys, early);
};

main().catch((error: unknown) => {
  // One line, no stack: what went wrong is in the message.
  printLines(process.stderr, `npm start failed: ${describeError(error)}`);
  process.exit(1);
});
