/**
 * Creates the example FaeTool caplets in the host's inventory, and
 * optionally the file tools and a Fae guest that starts with them:
 *
 *   endo run --UNCONFINED dist/setup-tools.js --powers AGENT
 *   FAE_CWD=~/project FAE_GUEST=fae endo run --UNCONFINED dist/setup-tools.js --powers AGENT
 *   endo run --UNCONFINED dist/setup-tools.js --powers @agent    # the newest daemon
 *
 * greet-tool, math-tool and timestamp-tool always; read-file-tool,
 * write-file-tool, edit-file-tool, list-dir-tool and run-command-tool only
 * with FAE_CWD (made absolute, and fixed as their root). With FAE_GUEST (or
 * LAL_NAME) the named guest is provisioned with every tool introduced and
 * its agent started (persona fae unless LAL_PERSONA says otherwise) and
 * pinned as setup.ts does (LAL_PIN=0 opts out), reading ENDO_LLM_* as
 * setup.ts does. Names that exist are kept, so it is safe to re-run.
 *
 * With MCP_NAME (and MCP_COMMAND or MCP_URL, see docs/mcp.md) it also makes
 * the MCP bridge `mcp-<name>` and gives it to the guest under tools/: Fae
 * offers every tool of that server, following its list as it changes.
 */
import { Fail, q } from '@endo/errors';
import { E } from '@endo/far';
import { makeToolCaplets } from './setup/make-tool-caplets.js';
import { planMcpBridge, removeChangedBridge } from './setup/mcp-bridge-plan.js';
import { mcpBridgeModuleUrl, toolSourceModuleUrl } from './tools/index.js';
import { planToolSource, readIsolated } from './setup/tool-source-plan.js';
import { warnWithoutSandbox } from './setup/warn-without-sandbox.js';
import { readSandboxSettings } from './tools/lib/sandbox/sandbox-settings.js';
import { assertModuleExists } from './setup/module-specifier.js';
import { pickEnv } from './setup/passed-env.js';
import { provisionAgent } from './setup/provision-agent.js';
import {
  guestNamesFor,
  readFaeCwd,
  readPersona,
  readPin,
  readRestart,
  readTokenFile,
  readWorker,
  type GuestNames,
} from './setup/read-setup-env.js';
import { sayToConsole } from './setup/say.js';
import { scriptMain } from './setup/script-main.js';
import { readEndoLlmEnv } from './setup/endo-llm-env.js';
import { readSetupDaemon, type SetupDaemon } from './setup/setup-daemon.js';
import type { SetupHostRef } from './setup/setup-host.js';
import type { Introspectable } from './src/daemon/remote-objects.js';
import { planToolCaplets, type ToolSpecifier } from './setup/tool-plans.js';
import { defaultAgentSpecifier, type SetupOptions } from './setup.js';

// eslint-disable-next-line @endo/harden-exports -- hardened where it is defined (setup/tool-plans.ts)
export { toolPetName } from './setup/tool-plans.js';

/** The command as the daemon's CLI takes it: `--powers AGENT` at f0a46042a, `--powers @agent` in the newest. */
export const setupToolsCommand = (daemon: Pick<SetupDaemon, 'agent'>): string =>
  `endo run --UNCONFINED dist/setup-tools.js --powers ${daemon.agent}`;
harden(setupToolsCommand);

export interface ToolSetupOptions extends SetupOptions {
  /** Where each tool's module is; the built dist/tools/<file>.js by default. */
  toolSpecifier?: ToolSpecifier;
  /** Where the MCP bridge's module is; the built dist/tools/mcp.js by default. */
  mcpSpecifier?: string;
  /** Where the tool source caplet's module is; the built dist/tools/tool-source.js by default. */
  toolSourceSpecifier?: string;
}

/** The guest to provision, from FAE_GUEST or else LAL_NAME; none when both are unset. */
const guestToProvision = (
  env: Readonly<Record<string, string | undefined>>,
): GuestNames | undefined => {
  if (env.FAE_GUEST) return guestNamesFor(env.FAE_GUEST, 'FAE_GUEST');
  if (env.LAL_NAME) return guestNamesFor(env.LAL_NAME, 'LAL_NAME');
  return undefined;
};

/** Tool names said after a source's count; the rest are counted. */
const NAMES_SAID = 20;

/**
 * Asks a tool source (the MCP bridge, whose server starts now, or the tool source caplet) what it
 * offers, so the host learns now, not at Fae's first call, whether it works.
 */
const saySourceTools = async (host: SetupHostRef, petName: string, say: (line: string) => void) => {
  const source = E(host).lookup(petName) as Promise<
    Introspectable & {
      check(): Promise<{ tools: string[]; left?: string[] } | { problem: string }>;
    }
  >;
  // check() never rejects: the CLI's CapTP would print a rejection raw before this warning.
  if (!(await E(source).__getMethodNames__()).includes('check')) {
    say(
      `"${petName}" was made by an earlier release and cannot be checked; Fae lists its tools at its next turn`,
    );
    return;
  }
  const checked = await E(source).check();
  if ('problem' in checked) {
    say(`warning: "${petName}" could not list its server's tools: ${checked.problem}`);
    return;
  }
  const { tools } = checked;
  const more = tools.length > NAMES_SAID ? ` and ${tools.length - NAMES_SAID} more` : '';
  say(
    `"${petName}" offers ${tools.length} tool(s): ${tools.slice(0, NAMES_SAID).join(', ')}${more}`,
  );
  for (const left of checked.left ?? []) say(`warning: "${petName}" does not offer ${left}`);
};

export const makeToolSetup =
  (options: ToolSetupOptions = {}) =>
  async (hostPowers: SetupHostRef, ...args: string[]): Promise<void> => {
    const say = options.say ?? sayToConsole;
    const daemon = await readSetupDaemon(hostPowers);
    const command = setupToolsCommand(daemon);
    args.length === 0 ||
      Fail`Usage: [FAE_CWD=<dir>] [FAE_GUEST=<guest-name>] ${q(command)} (no arguments); got ${q(args.length)}`;
    const env = readEndoLlmEnv(options.env ?? process.env, say);
    // Everything is checked before anything is created.
    const faeCwd = readFaeCwd(env, options.cwd ?? process.cwd());
    if (faeCwd !== undefined) readSandboxSettings(env, 'run-command-tool');
    const tokenFile = readTokenFile(env, options.cwd ?? process.cwd());
    const names = guestToProvision(env);
    const persona = names === undefined ? undefined : readPersona(env, 'fae');
    const plans = planToolCaplets({
      faeCwd,
      env,
      ...(options.toolSpecifier === undefined ? {} : { toolSpecifier: options.toolSpecifier }),
    });
    const mcpPlan = planMcpBridge(
      env,
      options.cwd ?? process.cwd(),
      options.mcpSpecifier ?? mcpBridgeModuleUrl(),
    );
    if (mcpPlan !== undefined) plans.push(mcpPlan);
    const sourcePlan = planToolSource(
      { ...env, FAE_CWD: faeCwd },
      options.cwd ?? process.cwd(),
      options.toolSourceSpecifier ?? toolSourceModuleUrl(),
    );
    if (sourcePlan !== undefined) plans.push(sourcePlan);
    const isolated = readIsolated(env, plans);
    for (const plan of plans) assertModuleExists(plan.specifier);
    const agentSpecifier =
      names === undefined
        ? undefined
        : assertModuleExists(options.agentSpecifier ?? defaultAgentSpecifier());

    // The tools run beside the agent they are for, in its worker, but those FAE_TOOL_ISOLATE names.
    const worker = readWorker(env, names?.guestName ?? 'tools', daemon.worker);
    if (mcpPlan !== undefined) await removeChangedBridge(hostPowers, mcpPlan, say);
    const { created } = await makeToolCaplets(
      hostPowers,
      { ...daemon, worker },
      plans,
      say,
      isolated,
    );
    say(
      `the tools run in "${worker}"${names === undefined ? '' : ', beside the agent'} (FAE_TOOL_ISOLATE=<name> gives one a worker of its own)`,
    );
    if (faeCwd !== undefined) await warnWithoutSandbox(env, say);
    for (const plan of [mcpPlan, sourcePlan])
      if (plan !== undefined) await saySourceTools(hostPowers, plan.petName, say);
    if (faeCwd === undefined) {
      say(
        'FAE_CWD is not set, so the file tools and run-command-tool were not made; set FAE_CWD=<directory> to make them, confined to it.',
      );
    }
    const toolNames = plans.map(plan => plan.petName);
    if (names === undefined || persona === undefined || agentSpecifier === undefined) {
      say(`To start a Fae guest with these tools: FAE_GUEST=fae ${command}`);
      say('Or mail one to a running agent: endo send fae "here is a calculator @calc:math-tool"');
      return;
    }
    await provisionAgent(hostPowers, {
      daemon,
      names,
      persona,
      env: pickEnv({ ...env, FAE_CWD: faeCwd, LAL_AUTH_TOKEN_FILE: tokenFile }),
      agentSpecifier,
      introducedNames: Object.fromEntries(toolNames.map(name => [name, name])),
      madeAnew: created,
      worker,
      restart: readRestart(env),
      pin: readPin(env),
      command: `FAE_GUEST=${names.guestName} ${command}`,
      say,
    });
  };
harden(makeToolSetup);

/** The entry `endo run --UNCONFINED` calls: a failure is one line and exit code 1, not a stack. */
export const main = scriptMain(makeToolSetup());
harden(main);
