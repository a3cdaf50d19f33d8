/**
 * A tool source caplet: one caplet that offers the FaeTools of several
 * modules through `listTools()`, as the MCP bridge offers a server's, so an
 * agent with a hundred tools holds one caplet rather than a hundred
 * (docs/daemon-guide.md, "A Fae with a hundred tools"). `TOOL_MODULES` names
 * the modules, comma-separated: a built-in tool by the name the model calls
 * it (`math`, `readFile`, …, tools/index.ts) or a module's absolute path or
 * `file://` URL. Each module's `make(powers, context, { env })` is called
 * with this caplet's env and answers a FaeTool or a list of them. A module
 * that cannot be loaded or made, and a tool whose name an earlier one took,
 * are left out and named in `help()`; the rest are offered.
 */
import { Fail, q } from '@endo/errors';
import { E } from '@endo/far';
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Env } from '../providers/types.js';
import type { FaeTool } from '../src/agent-tools/fae-tool.js';
import { describeError } from '../providers/describe-error.js';
import { isToolName, toolModuleUrl } from './index.js';

export const ToolSourceInterface = M.interface('ToolSource', {
  /** Every tool it offers, in the order of its modules. */
  listTools: M.call().returns(M.promise()),
  /** The names of its tools and what it left out, never a rejection (setup asks from the CLI). */
  check: M.call().returns(M.promise()),
  help: M.call().returns(M.string()),
});

/** A module's URL from one entry of TOOL_MODULES: a built-in tool's name, an absolute path or a file:// URL. */
export const toolModuleSpecifier = (entry: string): string => {
  if (isToolName(entry)) return toolModuleUrl(entry);
  if (entry.startsWith('file://')) return entry;
  isAbsolute(entry) ||
    Fail`TOOL_MODULES: ${q(entry)} is neither a built-in tool (math, readFile, …) nor an absolute path or file:// URL`;
  return pathToFileURL(entry).href;
};
harden(toolModuleSpecifier);

/** The entries of a list of modules, comma-separated (a path may hold spaces), blanks dropped. */
export const toolModuleEntries = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map(entry => entry.trim())
    .filter(entry => entry !== '');
harden(toolModuleEntries);

/** The entries of TOOL_MODULES; none is an error. */
const readToolModules = (env: Env): string[] => {
  const entries = toolModuleEntries(env.TOOL_MODULES);
  entries.length > 0 ||
    Fail`TOOL_MODULES names no module (comma-separated paths or built-in tool names)`;
  return entries;
};

interface Offered {
  tools: FaeTool[];
  /** Their names, in the same order. */
  names: string[];
  /** What was left out and why: a module, or a tool by name. */
  left: string[];
}

/** The source's exo over tools already made (the simulator's toolbox makes its own). */
export const makeToolSource = (offered: Offered, description: string) => {
  const tools = harden([...offered.tools]);
  return makeExo('ToolSource', ToolSourceInterface, {
    listTools: () => Promise.resolve(tools),
    check: () => Promise.resolve(harden({ tools: [...offered.names], left: [...offered.left] })),
    help: () =>
      [
        `${description}: ${tools.length} tool(s), through listTools().`,
        ...offered.left.map(line => `Not offered: ${line}.`),
      ].join('\n'),
  });
};
harden(makeToolSource);

type ToolModule = {
  make?: (powers: unknown, context: unknown, options: { env: Env }) => unknown;
};

type Loaded =
  | { entry: string; tools: { tool: FaeTool; name: string }[]; left: string[] }
  | { entry: string; failed: string };

/** One module's tools with their names; a tool whose schema() fails is left out, named. */
const loadModule = async (entry: string, env: Env): Promise<Loaded> => {
  let made: unknown;
  try {
    const module = (await import(toolModuleSpecifier(entry))) as ToolModule;
    if (typeof module.make !== 'function') throw Error('it exports no make()');
    made = await module.make(undefined, undefined, { env });
  } catch (error) {
    return { entry, failed: describeError(error) };
  }
  const named = await Promise.all(
    ((Array.isArray(made) ? made : [made]) as FaeTool[]).map(async tool => {
      try {
        return { tool, name: (await E(tool).schema()).function.name };
      } catch (error) {
        return { tool, failed: describeError(error) };
      }
    }),
  );
  return {
    entry,
    tools: named.flatMap(each =>
      each.name === undefined ? [] : [{ tool: each.tool, name: each.name }],
    ),
    left: named.flatMap(each =>
      each.failed === undefined ? [] : [`a tool of ${entry} (its schema() failed: ${each.failed})`],
    ),
  };
};

/** Every module's tools in the order named; a tool named as an earlier one is left out. */
const makeTools = async (entries: readonly string[], env: Env): Promise<Offered> => {
  const loaded = await Promise.all(entries.map(entry => loadModule(entry, env)));
  const offered: Offered = { tools: [], names: [], left: [] };
  for (const each of loaded) {
    if ('failed' in each) {
      offered.left.push(`${each.entry} (${each.failed})`);
      continue;
    }
    for (const { tool, name } of each.tools) {
      if (offered.names.includes(name)) {
        offered.left.push(
          `${name} of ${each.entry} (an earlier module offers a tool of that name)`,
        );
        continue;
      }
      offered.names.push(name);
      offered.tools.push(tool);
    }
    offered.left.push(...each.left);
  }
  return offered;
};

export const make = async (_powers: unknown, _context: unknown, options: { env?: Env } = {}) => {
  const env = options.env ?? {};
  const entries = readToolModules(env);
  return makeToolSource(await makeTools(entries, env), `tool source of ${entries.join(', ')}`);
};
harden(make);
