/**
 * `/attach <tool> [folder]`: the host makes one of the tool caplets (as
 * setup-tools does, from its built module) and mails it to the agent, which
 * can adopt it as a tool. `/attach toolbox` puts the simulator's sample
 * toolbox (120 stand-in tools, ../toolbox-tools.ts) in the agent's tools/,
 * as the daemon guide's tool source does, to try the toolbox with.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { readShellWords, type ShellWord } from './shell-words.js';
import { E } from '@endo/far';
import {
  exampleToolNames,
  isToolName,
  mcpBridgeModuleUrl,
  rootedToolNames,
  toolModuleUrl,
  type ToolName,
} from '../../tools/index.js';
import { readSetupDaemon } from '../../setup/setup-daemon.js';
import type { HostPowers } from '../mail-host/index.js';
import { TOOLBOX_SOURCE_URL } from '../toolbox-host.js';

/** The pet name for a tool: lowercase with hyphens (`readFile` → `read-file`). */
const toolPetName = (tool: ToolName): string =>
  tool.replace(/[A-Z]/g, letter => `-${letter.toLowerCase()}`);

/** `/attach toolbox`: the sample toolbox, under this pet name in the agent's tools/. */
const TOOLBOX_WORD = 'toolbox';
const TOOLBOX_PET_NAME = 'sample-toolbox';
/** As many tools as the daemon guide's source offers (docs/daemon-guide.md, "A Fae with a hundred tools"). */
const TOOLBOX_TOOLS = '120';

const allToolNames = (): string =>
  [
    ...exampleToolNames,
    ...rootedToolNames,
    `${TOOLBOX_WORD} (${TOOLBOX_TOOLS} sample tools)`,
    'mcp <name> <command> [args…] (an MCP server, docs/mcp.md)',
  ].join(', ');

/** Finds the tool by its name in any case (`readfile`, `read-file`). */
const findTool = (given: string): ToolName | undefined => {
  if (isToolName(given)) return given;
  const plain = given.replace(/-/g, '').toLowerCase();
  return [...exampleToolNames, ...rootedToolNames].find(name => name.toLowerCase() === plain);
};

/** The pet name `/attach <tool>` gives a tool named so (in any case), if it names one. */
export const attachedPetName = (given: string): string | undefined => {
  // `/attach toolbox` names the sample toolbox by this word, so `/detach toolbox` does too.
  if (given.toLowerCase() === TOOLBOX_WORD) return TOOLBOX_PET_NAME;
  const tool = findTool(given);
  return tool === undefined ? undefined : toolPetName(tool);
};
harden(attachedPetName);

/**
 * What the HOST made for `/attach`, under its pet name: one of the tools
 * (its root for the rooted ones), or an MCP bridge (its settings, ./attach-mcp.ts).
 */
export type AttachedTool =
  | {
      kind: 'tool';
      tool: ToolName;
      root: string | undefined;
      petName: string;
      /** The folder as typed, when `~` made it another (`~/notes`): said beside the root. */
      given?: string;
    }
  | { kind: 'mcp'; env: Readonly<Record<string, string>>; petName: string }
  | { kind: 'toolbox'; petName: string };

/** The sample toolbox, as the HOST makes it and a restart makes it again. */
export const sampleToolbox = (petName = TOOLBOX_PET_NAME): AttachedTool =>
  harden({ kind: 'toolbox', petName });
harden(sampleToolbox);

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
  const words = readShellWords(folder);
  if (words.length !== 1)
    throw Error(
      `${tool} takes one folder; quote a name with spaces, as in a shell: /attach ${tool} "my folder"`,
    );
  const [word] = words as [ShellWord];
  const root = resolve(cwd, word.text);
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    isFolder = false;
  }
  if (!isFolder)
    throw Error(
      `${root} is not a folder${word.quotedTilde ? ' (quotes stop ~ from being the home folder, as in a shell)' : ''}`,
    );
  // The folder as typed, when ~ made it another.
  return { kind: 'tool', tool, root, petName, ...(word.expanded ? { given: word.typed } : {}) };
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
      : attached.kind === 'toolbox'
        ? [TOOLBOX_SOURCE_URL, { TOOLBOX_TO: TOOLBOX_TOOLS }]
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

/** The agent's powers that hold its tools/. */
export interface ToolsHolder {
  has(...path: string[]): unknown;
  list(...path: string[]): unknown;
  identify(...path: string[]): unknown;
  makeDirectory(path: string | string[]): unknown;
}

/**
 * The name in the agent's tools/ that holds what the HOST attached under `petName` (the name
 * itself, or another the agent adopted it as), if any: attached already.
 */
export const heldAs = async (
  host: HostPowers,
  guest: ToolsHolder,
  petName: string,
): Promise<string | undefined> => {
  if (!(await E(guest).has('tools'))) return undefined;
  if (await E(guest).has('tools', petName)) return petName;
  if (!(await E(host).has(petName))) return undefined;
  const made = await E(host).identify(petName);
  for (const name of (await E(guest).list('tools')) as string[])
    if ((await E(guest).identify('tools', name)) === made) return name;
  return undefined;
};
harden(heldAs);

/**
 * Puts what the HOST made under `petName` in the agent's tools/, as
 * setup-tools does for a tool source: the agent offers it from its next turn.
 */
export const placeInTools = async (
  host: HostPowers,
  guest: ToolsHolder,
  petName: string,
): Promise<void> => {
  if (!(await E(guest).has('tools'))) await E(guest).makeDirectory('tools');
  const daemon = await readSetupDaemon(host);
  await daemon.storeIdentifier(
    guest,
    ['tools', petName],
    (await E(host).identify(petName)) as string,
  );
};
harden(placeInTools);

/** What `/attach` says of something the agent holds already, under `held` in its tools/. */
export const alreadyAttached = (word: string, guestName: string, held: string, note = ''): Error =>
  Error(
    `${word} is already attached: ${guestName} holds it as tools/${held}; /detach ${word} first to attach it again${note}`,
  );
harden(alreadyAttached);

/** `/attach toolbox`: the sample toolbox made and put in the agent's tools/ (no adoption asked). */
const attachToolbox = async (options: {
  host: HostPowers;
  special: { main: string; none: string };
  guestName: string;
  guest: ToolsHolder;
}): Promise<{ attached: AttachedTool; said: string }> => {
  const attached = sampleToolbox();
  const { host, guestName } = options;
  // Made again, it would leave the toolbox the agent holds as it was: said here, as for a tool.
  const held = await heldAs(host, options.guest, attached.petName);
  if (held !== undefined) throw alreadyAttached(TOOLBOX_WORD, guestName, held);
  if (await E(host).has(attached.petName)) await E(host).remove(attached.petName);
  await makeToolCaplet(host, options.special, attached);
  await placeInTools(host, options.guest, attached.petName);
  return {
    attached,
    said: `put ${attached.petName} in ${guestName}'s tools/: ${TOOLBOX_TOOLS} stand-in tools (repository, calendar, mail, files, tickets; each answers what it was given) that ${guestName} finds with its toolbox tool from its next turn; try: use a tool to plan a meeting called "standup"`,
  };
};

/** Makes the tool and mails it (the sample toolbox: puts it in tools/); resolves to what was made and a line saying so. Throws with a clear message. */
export const attachTool = async (options: {
  host: HostPowers;
  special: { main: string; none: string };
  guestName: string;
  guest: ToolsHolder;
  tool: string;
  folder: string | undefined;
  cwd: string;
}): Promise<{ attached: AttachedTool; said: string }> => {
  if (options.tool.toLowerCase() === TOOLBOX_WORD) {
    if (options.folder !== undefined) throw Error(`${TOOLBOX_WORD} takes no folder`);
    return attachToolbox(options);
  }
  const attached = planTool(options.tool, options.folder, options.cwd);
  // Mailed again, it would only be refused by the agent (a tool never replaces another): said here.
  const held = await heldAs(options.host, options.guest, attached.petName);
  if (held !== undefined)
    throw alreadyAttached(
      attached.tool,
      options.guestName,
      held,
      attached.root === undefined ? '' : ' (with another folder)',
    );
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
    said: `mailed @${petName} to ${options.guestName}${root === undefined ? '' : ` (rooted at ${root}${attached.given === undefined ? '' : `, from ${attached.given}`})`}`,
  };
};
harden(attachTool);
