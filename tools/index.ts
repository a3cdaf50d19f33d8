/**
 * The tool caplets by the name the model calls them, with the module file
 * each is built to (`dist/tools/<file>`), so setup scripts can find them
 * without importing them (a tool module wants its powers when made; this one
 * holds only hardened data and a URL helper). Like every module here it is
 * loaded under SES lockdown (the setup scripts run in the daemon's worker).
 */

import { PACKAGE_TOOL_FILES } from '../src/agent-tools/package-tools.js';

// The list is the agent's too (a policy list's names are checked against it): kept there.
export const toolModuleFiles = PACKAGE_TOOL_FILES;
harden(toolModuleFiles);

export type ToolName = keyof typeof toolModuleFiles;

/** Tools that need no configuration. */
export const exampleToolNames: readonly ToolName[] = Object.freeze([
  'greet',
  'math',
  'timestamp',
] as const);
harden(exampleToolNames);

/** Tools confined to (or run in) the root named by FAE_CWD; making them without it fails. */
export const rootedToolNames: readonly ToolName[] = Object.freeze([
  'readFile',
  'writeFile',
  'editFile',
  'listDir',
  'runCommand',
] as const);
harden(rootedToolNames);

/** Tools that change something outside the agent (files, processes): `npm start` asks before their calls. */
export const sideEffectToolNames: readonly ToolName[] = Object.freeze([
  'writeFile',
  'editFile',
  'runCommand',
] as const);
harden(sideEffectToolNames);

export const isToolName = (name: string): name is ToolName => {
  return Object.hasOwn(toolModuleFiles, name);
};
harden(isToolName);

/**
 * The `file://` URL of a tool's module, next to this one: in `dist/tools/`
 * once built, which is what `makeUnconfined` needs.
 */
export const toolModuleUrl = (name: ToolName): string => {
  return new URL(`./${toolModuleFiles[name]}`, import.meta.url).href;
};
harden(toolModuleUrl);

/** The `file://` URL of the tool source caplet (tool-source.ts): the tools of several modules in one caplet. */
export const toolSourceModuleUrl = (): string => new URL('./tool-source.js', import.meta.url).href;
harden(toolSourceModuleUrl);

/** The `file://` URL of the MCP bridge caplet (mcp.ts): not a FaeTool itself, a source of them. */
export const mcpBridgeModuleUrl = (): string => new URL('./mcp.js', import.meta.url).href;
harden(mcpBridgeModuleUrl);
