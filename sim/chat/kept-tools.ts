/**
 * The tools the HOST attached and the agent adopted, kept in the
 * simulator's state folder between runs as the daemon keeps a guest's
 * `tools/` (docs/behaviour.md 10.1): at each save, each name in the agent's
 * `tools/` that is a tool the HOST made with `/attach` (the same formula)
 * is written down with what it was made from; at the next start each is
 * made again and put back under the same name before the agent starts, so
 * a tool it remembers adopting is there (an MCP bridge's server started and
 * its tools listed first). One whose folder is gone is not, and the person
 * is told.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { E } from '@endo/far';
import { isToolName } from '../../tools/index.js';
import type { HostPowers } from '../mail-host/index.js';
import { makeToolCaplet, placeInTools, sampleToolbox, type AttachedTool } from './attach-tool.js';
import { toolsOffered } from './attach-mcp.js';

const FILE = 'tools.json';
const VERSION = 1;
const TOOLS = 'tools';

/**
 * Its name in the agent's tools/, and what it was made from: a tool (and its
 * root), an MCP bridge's settings, or the sample toolbox (`sample`, added
 * within version 1: an older reader says it is not a tool it makes).
 */
type KeptTool = { name: string } & (
  { tool: string; root?: string } | { mcp: Record<string, string> } | { sample: 'toolbox' }
);

/** What a kept entry makes again, under its name; undefined for one this version cannot make. */
const attachedFrom = (kept: KeptTool): AttachedTool | undefined => {
  if ('sample' in kept) return kept.sample === 'toolbox' ? sampleToolbox(kept.name) : undefined;
  if ('mcp' in kept)
    return typeof kept.mcp === 'object' && kept.mcp !== null
      ? { kind: 'mcp', env: kept.mcp, petName: kept.name }
      : undefined;
  return isToolName(kept.tool)
    ? { kind: 'tool', tool: kept.tool, root: kept.root, petName: kept.name }
    : undefined;
};

/** The entry that makes `tool` again under `name`. */
const keptFrom = (name: string, tool: AttachedTool): KeptTool =>
  tool.kind === 'mcp'
    ? { name, mcp: { ...tool.env } }
    : tool.kind === 'toolbox'
      ? { name, sample: 'toolbox' }
      : { name, tool: tool.tool, ...(tool.root === undefined ? {} : { root: tool.root }) };

/** The folder a tool needs that is gone, if one is. */
const goneFolder = (tool: AttachedTool): string | undefined => {
  const folder =
    tool.kind === 'mcp' ? tool.env.MCP_CWD : tool.kind === 'toolbox' ? undefined : tool.root;
  return folder !== undefined && !isFolder(folder) ? folder : undefined;
};

export interface ToolPowers {
  has(...path: string[]): unknown;
  list(...path: string[]): unknown;
  identify(...path: string[]): unknown;
  makeDirectory(path: string | string[]): unknown;
}

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

export const makeKeptTools = (folder: string, fresh: boolean) => {
  const path = join(folder, FILE);
  /** What the HOST made this run (attached, or made again from the file), by formula id. */
  const made = new Map<string, AttachedTool>();
  const remember = async (host: HostPowers, tool: AttachedTool): Promise<void> => {
    const id = await E(host).identify(tool.petName);
    if (typeof id === 'string') made.set(id, tool);
  };

  const read = (): KeptTool[] => {
    if (fresh || !existsSync(path)) return [];
    const file = JSON.parse(readFileSync(path, 'utf8')) as { version: number; tools: KeptTool[] };
    if (file.version !== VERSION || !Array.isArray(file.tools))
      throw Error(`${path} is not a file this version can read`);
    return file.tools.filter(kept => typeof kept.name === 'string');
  };

  return harden({
    path,
    /** A tool the HOST made with /attach this run. */
    attached: remember,
    /**
     * Makes each kept tool again and puts it back in the agent's tools/;
     * returns a line for the person (undefined when nothing was kept).
     */
    async restore(
      host: HostPowers,
      special: { main: string; none: string },
      guest: ToolPowers,
    ): Promise<string | undefined> {
      const kept = read();
      if (kept.length === 0) return undefined;
      const back: string[] = [];
      const missing: string[] = [];
      for (const entry of kept) {
        const attached = attachedFrom(entry);
        const gone = attached === undefined ? undefined : goneFolder(attached);
        if (attached === undefined || gone !== undefined) {
          missing.push(
            `${attached?.kind === 'tool' ? attached.tool : entry.name} (${gone === undefined ? 'not a tool this version makes' : `its folder ${gone} is gone`})`,
          );
          continue;
        }
        await makeToolCaplet(host, special, attached);
        await placeInTools(host, guest, entry.name);
        await remember(host, attached);
        // Its server started and listed before the agent's first turn, as /attach does: a server
        // slow to start (under load) would otherwise miss that turn.
        // By the name /attach took and its calls show (runCommand, not its pet name run-command).
        back.push(
          attached.kind === 'mcp'
            ? `${entry.name}: ${await toolsOffered(host, entry.name)}`
            : attached.kind === 'tool'
              ? attached.tool
              : entry.name,
        );
      }
      return [
        back.length === 0
          ? ''
          : `Given back to the agent: the tools it held from your /attach (${back.join(', ')}).`,
        missing.length === 0 ? '' : `Not given back: ${missing.join(', ')}.`,
      ]
        .filter(line => line !== '')
        .join(' ');
    },
    /** Writes down which of the agent's tools/ are tools the HOST made. */
    async save(guest: ToolPowers): Promise<void> {
      if (!(await E(guest).has(TOOLS))) return;
      const names = (await E(guest).list(TOOLS)) as string[];
      const kept: KeptTool[] = [];
      for (const name of names) {
        const tool = made.get((await E(guest).identify(TOOLS, name)) as string);
        if (tool !== undefined) kept.push(keptFrom(name, tool));
      }
      writeFileSync(`${path}.new`, JSON.stringify({ version: VERSION, tools: kept }), {
        mode: 0o600,
      });
      renameSync(`${path}.new`, path);
    },
  });
};
harden(makeKeptTools);
export type KeptTools = ReturnType<typeof makeKeptTools>;
