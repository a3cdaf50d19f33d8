/**
 * The MCP bridge caplet setup-tools makes when MCP_NAME is set
 * (docs/mcp.md): `mcp-<name>`, from dist/tools/mcp.js, passed the MCP_*
 * variables (MCP_CWD and MCP_AUTH_TOKEN_FILE made absolute, relative to where
 * the script runs) and the variables MCP_ENV names. The settings are checked
 * here, as the caplet will read them, before anything is made.
 */
import { Fail, q } from '@endo/errors';
import path from 'node:path';
import { statSync } from 'node:fs';
import { mcpEnvNames, readMcpSettings, storableMcpArgs } from '../tools/lib/mcp/mcp-settings.js';
import { MCP_ENV_NAMES } from '../tools/lib/tool-settings.js';
import { E } from '@endo/far';
import { mcpMadeWith } from '../tools/lib/mcp/mcp-made-with.js';
import type { ToolCapletPlan } from './make-tool-caplets.js';
import type { SetupHostRef } from './setup-host.js';
import type { Say } from './say.js';
import type { Introspectable } from '../src/daemon/remote-objects.js';
import { pickEnv, type SourceEnv } from './passed-env.js';

/** The host's pet name of the bridge to the server named `name`. */
const mcpBridgePetName = (name: string): string => `mcp-${name}`;

const absolute = (raw: string | undefined, cwd: string): string | undefined =>
  raw === undefined || raw.trim() === '' ? undefined : path.resolve(cwd, raw.trim());

export const planMcpBridge = (
  env: SourceEnv,
  cwd: string,
  specifier: string,
): ToolCapletPlan | undefined => {
  if (env.MCP_NAME === undefined || env.MCP_NAME === '') return undefined;
  const mcpCwd = absolute(env.MCP_CWD, cwd);
  const tokenFile = absolute(env.MCP_AUTH_TOKEN_FILE, cwd);
  const picked = pickEnv({ ...env, MCP_CWD: mcpCwd, MCP_AUTH_TOKEN_FILE: tokenFile }, [
    ...MCP_ENV_NAMES,
    ...mcpEnvNames(env.MCP_ENV),
  ]);
  // Refused here as the caplet would refuse it, naming the variable.
  readMcpSettings({ ...picked, MCP_AUTH_TOKEN: env.MCP_AUTH_TOKEN });
  if (mcpCwd !== undefined) {
    let isDirectory = false;
    try {
      isDirectory = statSync(mcpCwd).isDirectory();
    } catch {
      // Said below.
    }
    isDirectory || Fail`MCP_CWD is not a directory: ${q(mcpCwd)}`;
  }
  // Stored so that a daemon restart gives it back unchanged (storableMcpArgs).
  const args = storableMcpArgs(picked.MCP_ARGS);
  const stored = args === undefined ? picked : { ...picked, MCP_ARGS: args };
  return harden({ petName: mcpBridgePetName(picked.MCP_NAME!), specifier, env: stored });
};
harden(planMcpBridge);

/**
 * Run again with other MCP settings: the bridge made before is removed, so
 * that it is made anew with these (and handed to the guest this run
 * provisions in place of the old one). Settings the same: kept. A bridge of
 * an earlier release cannot say what it was made with: kept, and said so.
 */
export const removeChangedBridge = async (
  host: SetupHostRef,
  plan: ToolCapletPlan,
  say: Say,
): Promise<void> => {
  if (!(await E(host).has(plan.petName))) return;
  const bridge = E(host).lookup(plan.petName) as Promise<
    Introspectable & { madeWith(): Record<string, string> }
  >;
  // Asked first rather than called and caught: the CLI's CapTP prints a rejected call raw.
  if (!(await E(bridge).__getMethodNames__()).includes('madeWith')) {
    say(
      `"${plan.petName}" cannot say what it was made with (an earlier release): kept as it is; endo remove ${plan.petName} and run this again to make it with these settings`,
    );
    return;
  }
  const had = await E(bridge).madeWith();
  const wanted = mcpMadeWith(plan.env);
  const changed = [...new Set([...Object.keys(had), ...Object.keys(wanted)])]
    .filter(name => had[name] !== wanted[name])
    .sort();
  if (changed.length === 0) return;
  say(`"${plan.petName}" was made with other settings (${changed.join(', ')}): making it anew`);
  await E(host).remove(plan.petName);
};
harden(removeChangedBridge);
