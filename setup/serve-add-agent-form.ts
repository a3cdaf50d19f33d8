/**
 * The agent manager at work (newest daemon), as upstream Lal's manager works
 * (endo packages/lal/agent.js): it sends `@host` the "Add an agent" form once
 * (upstream sends one per start: a form more after every restart; here the
 * manager's own copy of the form it sent, kept in its inbox, says it was
 * sent), and each submission of one of its forms (a `value` message
 * replying to it, values read with `lookupById(valueId)`) makes a new agent:
 * a guest `<name>` with powers `profile-for-<name>`, made through the host's
 * powers it was introduced to as `host-agent`. The answer is a reply to the
 * value message: `Agent "<name>" is now running.`, `… already exists.`, or
 * `Error creating agent: …`.
 *
 * Unlike upstream, the agent is not a loop inside the manager: it is our
 * agent caplet `controller-for-<name>` started with the submitted host,
 * model and token and pinned, as setup.js starts one, so it comes back by
 * itself after `endo restart`. The token is never echoed: not in a reply, the
 * log, help() or any store of ours (the daemon keeps the submitted values
 * and the caplet's env in its state, as it does for any form and caplet).
 */
import { E } from '@endo/far';
import { redact } from '../providers/provider-errors.js';
import { idFromLocator } from '../src/daemon/daemon-adapter.js';
import { readStream } from '../src/daemon/stream-reader-client.js';
import { ADD_AGENT_DESCRIPTION, ADD_AGENT_FIELDS, readSubmission } from './add-agent-form.js';
import { pickEnv } from './passed-env.js';
import { provisionAgent } from './provision-agent.js';
import { guestNamesFor, readWorker } from './read-setup-env.js';
import { readSetupDaemon } from './setup-daemon.js';
import type { SetupHostRef } from './setup-host.js';
import { describeError } from '../providers/describe-error.js';
import { SPECIAL_NAMES } from '../src/daemon/special-names.js';
import { HOST_AGENT } from './our-agents.js';

export interface AddedAgent {
  name: string;
  host: string;
  model: string;
  outcome: 'started' | 'exists' | 'failed';
}

export interface AddAgentFormOptions {
  /** The manager guest's powers. */
  powers: unknown;
  /** Our agent's module (dist/agent.js), a file:// URL. */
  agentSpecifier: string;
  /** The manager's log (a line at a time; never given a token). */
  log: (line: string) => void;
  /** Told of each submission answered, for help(). */
  onAnswered?: (added: AddedAgent) => void;
  /** Stops following mail when it settles. */
  stopped?: Promise<unknown>;
}

interface MailRecord {
  type?: unknown;
  number?: unknown;
  from?: unknown;
  messageId?: unknown;
  replyTo?: unknown;
  valueId?: unknown;
}

type Powers = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * How the new agent gets its key: by the id of the value the HOST named
 * (read by the agent through its powers, never in the caplet's stored
 * settings), else the token submitted.
 */
const keyOf = async (
  host: SetupHostRef,
  { authToken, authTokenName }: { authToken: string; authTokenName: string },
): Promise<Record<string, string>> => {
  if (authTokenName === '') return { LAL_AUTH_TOKEN: authToken };
  const named = E(host as unknown as Powers);
  const id = idFromLocator(await named.identify!(authTokenName));
  if (id === undefined) throw Error(`you have no value named ${JSON.stringify(authTokenName)}`);
  if (typeof (await named.lookup!(authTokenName)) !== 'string')
    throw Error(
      `${JSON.stringify(authTokenName)} is not a stored text: store the key with endo store --text KEY --name ${authTokenName}`,
    );
  return { LAL_AUTH_TOKEN_ID: id };
};

/** Sends the form, then answers each submission of the manager's forms, one at a time, until stopped. */
export const serveAddAgentForm = async (options: AddAgentFormOptions): Promise<void> => {
  const { agentSpecifier, log } = options;
  const powers = () => E(options.powers as Powers) as unknown as Powers;
  const host = (await powers().lookup!(HOST_AGENT)) as SetupHostRef;
  const daemon = await readSetupDaemon(host);
  const selfId = idFromLocator(await powers().identify!('@self'));
  // One form for good: the manager's own copy of one sent before (kept, never dismissed) means @host has it.
  const own = (await powers().listMessages!()) as MailRecord[];
  const sentBefore = own.some(
    message =>
      message.type === 'form' && selfId !== undefined && idFromLocator(message.from) === selfId,
  );
  if (sentBefore) {
    log(`revived; the "${ADD_AGENT_DESCRIPTION}" form sent before still stands`);
  } else {
    await powers().form!(SPECIAL_NAMES.newest.host, ADD_AGENT_DESCRIPTION, ADD_AGENT_FIELDS);
    log(`sent @host the "${ADD_AGENT_DESCRIPTION}" form`);
  }

  const answer = async (message: MailRecord): Promise<void> => {
    let secrets: string[] = [];
    let text: string;
    let added: AddedAgent | undefined;
    try {
      const submission = readSubmission(await powers().lookupById!(message.valueId));
      secrets = [submission.authToken];
      const key = await keyOf(host, submission);
      const names = guestNamesFor(submission.name, 'The agent name');
      const outcome = await provisionAgent(host, {
        daemon,
        names,
        persona: names.guestName === 'fae' ? 'fae' : 'lal',
        env: pickEnv({
          LAL_HOST: submission.host,
          LAL_MODEL: submission.model,
          ...key,
        }),
        agentSpecifier,
        worker: readWorker({}, names.guestName, daemon.worker),
        restart: false,
        pin: true,
        command: `LAL_NAME=${names.guestName} endo run --UNCONFINED dist/setup.js --powers ${daemon.agent}`,
        say: line => log(redact(line, secrets)),
      });
      const exists = outcome.agent === 'kept' || outcome.agent === 'revived';
      // Named otherwise when the name was another's (our-agents.ts).
      const made = outcome.names.guestName;
      text =
        outcome.agent === 'kept'
          ? `Agent "${made}" already exists.`
          : outcome.agent === 'revived'
            ? `Agent "${made}" already existed but was not running; it is running again.`
            : `Agent "${made}" is now running.`;
      added = {
        name: made,
        host: submission.host,
        model: submission.model,
        outcome: exists ? 'exists' : 'started',
      };
    } catch (error) {
      text = `Error creating agent: ${redact(describeError(error), secrets)}`;
      log(text);
    }
    await powers().reply!(message.number, [text], [], []);
    if (added !== undefined) options.onAnswered?.(harden(added));
  };

  const forms = new Set<string>();
  const stream = readStream(await powers().followMessages!());
  options.stopped?.then(
    () => stream.return(),
    () => stream.return(),
  );
  for (;;) {
    const next = await stream.next();
    if (next.done) return;
    const message = next.value as MailRecord;
    if (typeof message.number !== 'bigint') continue;
    const dismiss = () => powers().dismiss!(message.number).catch(() => {});
    if (selfId !== undefined && idFromLocator(message.from) === selfId) {
      // Our own forms are kept (a submission names one); copies of our answers are not needed.
      if (message.type === 'form' && typeof message.messageId === 'string')
        forms.add(message.messageId);
      else await dismiss();
      continue;
    }
    if (
      message.type !== 'value' ||
      typeof message.replyTo !== 'string' ||
      !forms.has(message.replyTo)
    )
      continue;
    await answer(message).catch((error: unknown) =>
      log(`could not answer submission #${message.number}: ${describeError(error)}`),
    );
    // Answered: dismissed, so a restart does not answer it again.
    await dismiss();
  }
};
harden(serveAddAgentForm);
