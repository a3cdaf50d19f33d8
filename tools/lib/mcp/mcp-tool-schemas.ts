/**
 * The FaeTool schema of each MCP tool: its input schema made fit for every
 * provider by the agent's own check (check-tool-schema.ts, the one
 * normaliser), named by its MCP name where that is a valid tool name, else
 * by the name with every other character made `_` (MCP allows `.` and `/`
 * and 128 characters; the model APIs do not). A tool the check refuses is
 * left out with the reason, for the log and help().
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSchema } from '../../../providers/types.js';
import { checkToolSchema } from '../../../src/agent-tools/check-tool-schema.js';

export interface BridgedTool {
  /** The name the model calls (the FaeTool's schema name). */
  name: string;
  /** The name the server knows it by. */
  mcpName: string;
  schema: ToolSchema;
}

export interface BridgedTools {
  tools: BridgedTool[];
  refused: { mcpName: string; reason: string }[];
}

/**
 * The name itself, else numbered from 2 (`name_2`), cut so the number fits in 64. One name more
 * than are taken is among them, so one is free: no search that could go on forever.
 */
const modelName = (mcpName: string, taken: ReadonlySet<string>): string => {
  const base = mcpName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool';
  const numbered = Array.from({ length: taken.size }, (_, at) => {
    const suffix = `_${at + 2}`;
    return `${base.slice(0, 64 - suffix.length)}${suffix}`;
  });
  return [base, ...numbered].find(name => !taken.has(name))!;
};

export const bridgeTools = (tools: readonly Tool[]): BridgedTools => {
  const taken = new Set<string>();
  const result: BridgedTools = { tools: [], refused: [] };
  for (const tool of tools) {
    const name = modelName(tool.name, taken);
    const description = tool.description ?? tool.title ?? '';
    const checked = checkToolSchema({
      type: 'function',
      function: { name, description, parameters: tool.inputSchema },
    });
    if (!checked.ok) {
      result.refused.push({ mcpName: tool.name, reason: checked.reason });
      continue;
    }
    taken.add(name);
    result.tools.push({ name, mcpName: tool.name, schema: checked.schema });
  }
  return result;
};
harden(bridgeTools);
