/**
 * Finds tool calls that a model wrote into its reply text instead of the
 * structured field (servers that do not parse the model's native format),
 * by asking each known format family in turn (./formats/index.ts). Only
 * tools offered in this request can be called this way, and only in those
 * shapes: anything else, or anything ambiguous, stays the model's text.
 * Returns the calls with their arguments as JSON text, and the model's words
 * with the markup taken out.
 */
import type { ToolSchema } from '../../providers/types.js';
import { offeredOps } from '../agent-tools/tool-groups.js';
import { CALL_FORMATS, type OfferedTools, type TextCall } from './formats/index.js';

type RecoveredCall = TextCall;

export interface Recovery {
  calls: RecoveredCall[];
  text: string;
  /** The family whose format the calls were written in. */
  family?: string;
}

/** The offered tools by name, and each offered op of a grouped tool by its former tool name (`list` → `names`). */
export const offeredTools = (tools: readonly ToolSchema[]): OfferedTools =>
  new Map(
    tools.flatMap(tool => [
      [tool.function.name, tool] as const,
      ...(offeredOps(tool) ?? []).map(op => [op, tool] as const),
    ]),
  );
harden(offeredTools);

export const recoverToolCalls = (text: string, offered: OfferedTools): Recovery => {
  if (offered.size === 0) return { calls: [], text };
  for (const format of CALL_FORMATS) {
    if (!format.detect(text)) continue;
    const found = format.parse(text, offered);
    if (found !== undefined) return { ...found, family: format.family };
  }
  return { calls: [], text };
};
harden(recoverToolCalls);
