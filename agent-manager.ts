/**
 * The agent manager caplet (newest daemon only): `make(powers, context, { env })`
 * as the daemon's worker calls it. It sends `@host` the "Add an agent" form
 * (the one the chat UI shows) and makes a Lal or Fae agent for each
 * submission (setup/serve-add-agent-form.ts). setup.js provisions it as the
 * guest `setup-lal`, the name upstream Lal's manager has, introduced to the
 * host's powers as `host-agent`.
 */
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import { displayHost } from './providers/display-host.js';
import { makeLog } from './src/log/log.js';
import { watchCancellation } from './src/lifecycle/watch-cancellation.js';
import { serveAddAgentForm, type AddedAgent } from './setup/serve-add-agent-form.js';
import { describeError } from './providers/describe-error.js';

const ManagerInterface = M.interface('LalFaeAgentManager', {
  help: M.call().optional(M.string()).returns(M.string()),
});

const INTRO =
  'The Lal/Fae agent manager. It sent @host an "Add an agent" form: submit it (in the chat UI, or endo submit <number> -f name:<name> -f host:<url> -f model:<model> -f authToken:<token>) to make and start an agent with that name; submit it again for another. Methods: help(methodName?).';

export interface ManagerOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Our agent's module; dist/agent.js next to this one by default (tests give the source). */
  agentSpecifier?: string;
  /** Overrides the log (stderr in the worker by default). */
  log?: (line: string) => void;
}

export const make = (powers: unknown, context: unknown, options: ManagerOptions = {}) => {
  const env = options.env ?? {};
  const log = options.log ?? makeLog({ ...env, LAL_PERSONA: 'agent-manager' });
  const agentSpecifier =
    options.agentSpecifier ?? env.LAL_AGENT_MODULE ?? new URL('./agent.js', import.meta.url).href;
  const added: AddedAgent[] = [];
  let problem: string | undefined;
  let stop!: () => void;
  const stopped = new Promise<void>(resolve => {
    stop = resolve;
  });
  watchCancellation(context, undefined, () => stop());
  serveAddAgentForm({
    powers,
    agentSpecifier,
    log,
    stopped,
    onAnswered: agent => added.push(agent),
  }).catch((error: unknown) => {
    problem = describeError(error);
    log(`stopped: ${problem}`);
  });
  return makeExo('LalFaeAgentManager', ManagerInterface, {
    help(methodName?: string) {
      if (methodName !== undefined && methodName !== '') {
        return `No method named ${JSON.stringify(methodName)}. ${INTRO}`;
      }
      // Host (without any user:password part) and model only: never the token.
      const lines = added.map(
        agent =>
          `- ${agent.name}: ${agent.outcome === 'exists' ? 'already existed' : 'started'} (${displayHost(agent.host)}, ${agent.model})`,
      );
      return [
        INTRO,
        ...(lines.length === 0 ? [] : ['Agents added by form since it started:', ...lines]),
        ...(problem === undefined ? [] : [`It stopped: ${problem}`]),
      ].join('\n');
    },
  });
};
harden(make);
