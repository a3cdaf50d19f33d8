/**
 * `/attach <tool> [folder]`: the host makes one of the tool caplets (as
 * setup-tools does, from its built module) and mails it to the agent, which
 * can adopt it as a tool.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { E } from '@endo/far';
import {
  exampleToolNames,
  isToolName,
  mcpBridgeModuleUrl,
  rootedToolNames,
  toolModuleUrl,
  type ToolName,
} from '../../tools/index.js';
import type { HostPowers } from '../mail-host/index.js';

/** The pet name for a tool: lowercase with hyphens (`readFile` → `read-file`). */
const toolPetName = (tool: ToolName): string =>
  tool.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);

const allToolNames = (): string => [...exampleToolNames, ...rootedToolNames].join(', ');

/** Finds the tool by its name in any case (`readfile`, `read-file`). */
const findTool = (given: string): ToolName | undefined => {
  if (isToolName(given)) return given;
  const plain = given.replace(/-/g, '').toLowerCase();
  return [...exampleToolNames, ...rootedToolNames].find(name => name.toLowerCase() === plain);
};

/** The pet name `/attach <tool>` gives a tool named so (in any case), if it names one. */
export const attachedPetName = (given: string): string | undefined => {
  const tool = findTool(given);
  return tool === undefined ? undefined : toolPetName(tool);
};
harden(attachedPetName);

/**
 * What the HOST made for `/attach`, under its pet name: one of the tools
 * (its root for the rooted ones), or an MCP bridge (its settings, ./attach-mcp.ts).
 */
export type AttachedTool =
  | { kind: 'tool'; tool: ToolName; root: string | undefined; petName: string }
  | { kind: 'mcp'; env: Readonly<Record<string, string>>; petName: string };

/** Checks the tool and its folder; throws with a clear message. */
const planTool = (
  given: string,
  folder: string | undefined,
  cwd: string,
): Extract<AttachedTool, { kind: 'tool' }> => {
  const tool = findTool(given);
  if (tool === undefined)
    throw Error(`No tool named ${JSON.stringify(given)}; the tools are: ${allToolNames()}`);
  const petName = toolPetName(tool);
  if (!rootedToolNames.includes(tool)) {
    if (folder !== undefined) throw Error(`${tool} takes no folder`);
    return { kind: 'tool', tool, root: undefined, petName };
  }
  if (folder === undefined) throw Error(`${tool} works inside a folder: /attach ${tool} <folder>`);
  const root = resolve(cwd, folder);
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder) throw Error(`${root} is not a folder`);
  return { kind: 'tool', tool, root, petName };
};

/** The HOST makes the tool caplet or MCP bridge (as setup-tools does, from its built module) under its pet name. */
export const makeToolCaplet = async (
  host: HostPowers,
  special: { main: string; none: string },
  attached: AttachedTool,
): Promise<void> => {
  const [specifier, env] =
    attached.kind === 'mcp'
      ? [mcpBridgeModuleUrl(), attached.env]
      : [
          toolModuleUrl(attached.tool),
          attached.root === undefined ? {} : { FAE_CWD: attached.root },
        ];
  await E(host).makeUnconfined(special.main, specifier, {
    powersName: special.none,
    resultName: attached.petName,
    env,
  });
};
harden(makeToolCaplet);

/** Makes the tool and mails it; resolves to what was made and a line saying so. Throws with a clear message. */
export const attachTool = async (options: {
  host: HostPowers;
  special: { main: string; none: string };
  guestName: string;
  tool: string;
  folder: string | undefined;
  cwd: string;
}): Promise<{ attached: AttachedTool; said: string }> => {
  const attached = planTool(options.tool, options.folder, options.cwd);
  await makeToolCaplet(options.host, options.special, attached);
  const { petName, root } = attached;
  await E(options.host).send(
    options.guestName,
    [`Here is a tool for you: `, ''],
    [petName],
    [petName],
  );
  return {
    attached,
    said: `mailed @${petName} to ${options.guestName}${root === undefined ? '' : ` (rooted at ${root})`}`,
  };
};
harden(attachTool);
