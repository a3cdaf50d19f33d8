/**
 * A FaeTool of tools/ as the registry (./fae-tool-registry.ts) knows it, and what it knows of
 * each entry of tools/: the records that both the registry and the choice of what is offered
 * (./offered-tools.ts) read, kept apart from both so neither imports the other's.
 */
import type { ToolSchema } from '../../providers/types.js';
import type { FaeTool } from './fae-tool.js';
import type { SourceTools, ToolSource } from './tool-sources.js';

export interface DynamicTool {
  /** The name the model calls it by (from its schema). */
  name: string;
  /** Its pet name in tools/. */
  petName: string;
  schema: ToolSchema;
  tool: FaeTool;
  /** Whether it answers `executeUntil` (./fae-tool.ts): a call of it can be stopped part-way. */
  stoppable: boolean;
}

/** One entry of tools/ under its formula id: a FaeTool, a tool source, or why it is refused. */
export interface Known {
  id: string;
  entry: DynamicTool | undefined;
  /** A tool source (tool-sources.ts) under this pet name, and its tools as last listed. */
  source?: { ref: ToolSource; tools: SourceTools };
  /** Why the entry is not offered, when it is not. */
  refused?: string;
}
