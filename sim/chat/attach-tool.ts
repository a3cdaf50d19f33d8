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

/** Makes the tool and mails it; resolves to a line saying what was sent. Throws with a clear message. */
export const attachTool = async (options: {
  host: HostPowers;
  guestName: string;
  tool: string;
  folder: string | undefined;
  cwd: string;
}): Promise<string> => {
  const tool = findTool(options.tool);
  if (tool === undefined)
    throw Error(`No tool named ${JSON.stringify(options.tool)}; the tools are: ${allToolNames()}`);
  const rooted = rootedToolNames.includes(tool);
  const env: Record<string, string> = {};
  if (rooted) {
    if (options.folder === undefined)
      throw Error(`${tool} works inside a folder: /attach ${tool} <folder>`);
    const root = resolve(options.cwd, options.folder);
    let isFolder = false;
    try {
      isFolder = statSync(root).isDirectory();
    } catch {
      isFolder = false;
    }
    if (!isFolder) throw Error(`${root} is not a folder`);
    env.FAE_CWD = root;
  } else if (options.folder !== undefined) {
    throw Error(`${tool} takes no folder`);
  }
  const petName = toolPetName(tool);
  await E(options.host).makeUnconfined('MAIN', toolModuleUrl(tool), {
    powersName: 'NONE',
    resultName: petName,
    env,
  });
  await E(options.host).send(
    options.guestName,
    [`Here is a tool for you: `, ''],
    [petName],
    [petName],
  );
  return `mailed @${petName} to ${options.guestName}${rooted ? ` (rooted at ${env.FAE_CWD})` : ''}`;
};
harden(attachTool);
