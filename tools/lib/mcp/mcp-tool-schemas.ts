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

const modelName = (mcpName: string, taken: ReadonlySet<string>): string => {
  const base = mcpName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'tool';
  if (!taken.has(base)) return base;
  for (let index = 2; ; index += 1) {
    const suffix = `_${index}`;
    const candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
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
