/**
 * `/attach mcp <name> <command> [args…]` (or `/attach mcp <name> <url>`):
 * the HOST makes the MCP bridge caplet `mcp-<name>` with these settings, as
 * setup-tools does from MCP_* (docs/mcp.md), and puts it in the agent's
 * `tools/`, where the agent finds the server's tools at its next turn. A
 * local server runs in the same bubblewrap sandbox as in the daemon: its
 * only writable folder is one of its own in the state folder, no network.
 * Its words are read as a shell reads them (./shell-words.ts: quotes, `~`).
 * An argument naming a file that exists (a server's `dist/index.js`) is made
 * absolute, since the server starts in its own folder.
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { E } from '@endo/far';
import { mcpBridgeModuleUrl } from '../../tools/index.js';
import { planMcpBridge } from '../../setup/mcp-bridge-plan.js';
import { describeError } from '../../providers/describe-error.js';
import { readShellWords } from './shell-words.js';
import type { HostPowers } from '../mail-host/index.js';
import {
  alreadyAttached,
  heldAs,
  makeToolCaplet,
  placeInTools,
  type AttachedTool,
  type ToolsHolder,
} from './attach-tool.js';

const MCP_USAGE =
  'Usage: /attach mcp <name> <command> [args…] (a local server, sandboxed) or /attach mcp <name> <url>; e.g. /attach mcp everything node node_modules/@modelcontextprotocol/server-everything/dist/index.js';

const NO_NETWORK =
  'A local server runs sandboxed, with no network: a command that downloads (npx -y, uvx) cannot; install the server first and name its file (docs/mcp.md).';

/** What to check when a server at an address could not list its tools: the sandbox is not in it. */
const notAnswered = (url: string) =>
  `The server at ${url} did not answer: check that it runs and that the address, its path too, is the one it serves MCP at (docs/mcp.md).`;

/** Checks the settings as the bridge will read them (the same check setup-tools runs); throws with a clear message. */
const planMcp = (
  rest: string,
  cwd: string,
  stateFolder: string,
): Extract<AttachedTool, { kind: 'mcp' }> => {
  // As a shell reads them: quotes taken off, a leading ~ the home folder (./shell-words.ts).
  const [name, first, ...args] = readShellWords(rest).map(word => word.text);
  if (name === undefined || first === undefined) throw Error(MCP_USAGE);
  const local = !/^https?:\/\//.test(first);
  const serverFolder = join(stateFolder, 'mcp', name);
  // The real path: the sandbox binds a server's node_modules as it is on disk, not through a link.
  const absolute = (word: string) =>
    !isAbsolute(word) && existsSync(resolve(cwd, word)) ? realpathSync(resolve(cwd, word)) : word;
  const settings: Record<string, string> = local
    ? {
        MCP_NAME: name,
        MCP_COMMAND: absolute(first),
        MCP_ARGS: JSON.stringify(args.map(absolute)),
        MCP_CWD: serverFolder,
      }
    : { MCP_NAME: name, MCP_URL: first };
  if (local) mkdirSync(serverFolder, { recursive: true, mode: 0o700 });
  const plan = planMcpBridge(settings, cwd, mcpBridgeModuleUrl());
  if (plan === undefined) throw Error(MCP_USAGE);
  return { kind: 'mcp', env: plan.env, petName: plan.petName };
};

/** The names of the tools the bridge's server offers (starting it), or why it could not list them. */
const listOffered = async (
  host: HostPowers,
  petName: string,
): Promise<{ names: string[] } | { reason: string }> => {
  try {
    const bridge = E(host).lookup(petName) as Promise<{ listTools(): Promise<unknown[]> }>;
    const tools = await E(bridge).listTools();
    const names = await Promise.all(
      tools.map(
        async tool =>
          (await E(tool as { schema(): Promise<{ function: { name: string } }> }).schema()).function
            .name,
      ),
    );
    return { names };
  } catch (error) {
    return { reason: describeError(error) };
  }
};

const offeredPhrase = (names: readonly string[]) =>
  `its server offers ${names.length} tool${names.length === 1 ? '' : 's'}: ${names.join(', ')}`;

/** What the bridge's server offers, as a phrase for the person. */
export const toolsOffered = async (host: HostPowers, petName: string): Promise<string> => {
  const listed = await listOffered(host, petName);
  return 'reason' in listed
    ? `its server could not list its tools yet: ${listed.reason}`
    : offeredPhrase(listed.names);
};
harden(toolsOffered);

/** Makes the bridge and puts it in the agent's tools/; resolves to what was made and a line saying so. */
export const attachMcp = async (options: {
  host: HostPowers;
  special: { main: string; none: string };
  guestName: string;
  guest: ToolsHolder;
  rest: string;
  cwd: string;
  stateFolder: string;
  /** Ctrl-C (./stoppable-command.ts): the server is ended and nothing is put in tools/. */
  signal?: AbortSignal;
  /** Told the bridge's name once the settings are checked, before its server starts (it may take long). */
  starting?: (petName: string) => void;
}): Promise<{ attached: AttachedTool; said: string }> => {
  const attached = planMcp(options.rest, options.cwd, options.stateFolder);
  const { host, guest, special, signal } = options;
  // Made again, it would replace the server the agent holds without a word: refused as /attach
  // refuses any tool held already (./attach-tool.ts), before a second server starts.
  const held = await heldAs(host, guest, attached.petName);
  if (held !== undefined) {
    const word = `mcp ${readShellWords(options.rest)[0]!.text}`;
    throw alreadyAttached(word, options.guestName, held);
  }
  options.starting?.(attached.petName);
  // A bridge the HOST still names that the agent no longer holds is made anew with these settings.
  if (await E(host).has(attached.petName)) await E(host).remove(attached.petName);
  await makeToolCaplet(host, special, attached);
  const stopped = new Promise<'stopped'>(settle => {
    if (signal?.aborted === true) settle('stopped');
    signal?.addEventListener('abort', () => settle('stopped'), { once: true });
  });
  // A server that cannot list its tools would be offered as nothing and started again at every run.
  const listed = await Promise.race([listOffered(host, attached.petName), stopped]);
  if (listed === 'stopped') {
    // Unnamed, the bridge is collected and its server ended (as /detach does).
    await E(host).remove(attached.petName);
    throw Error(
      `Stopped attaching ${attached.petName} (Ctrl-C): its server was ended; nothing was put in ${options.guestName}'s tools/`,
    );
  }
  if ('reason' in listed) {
    await E(host).remove(attached.petName);
    throw Error(
      `Did not attach ${attached.petName}: its server could not list its tools (${listed.reason}); nothing was put in ${options.guestName}'s tools/. ${attached.env.MCP_URL === undefined ? NO_NETWORK : notAnswered(attached.env.MCP_URL)}`,
    );
  }
  await placeInTools(host, guest, attached.petName);
  return {
    attached,
    said: `put ${attached.petName} in ${options.guestName}'s tools/ (${offeredPhrase(listed.names)}); ${options.guestName} offers them from its next turn`,
  };
};
harden(attachMcp);
