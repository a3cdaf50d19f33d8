/**
 * The FaeTool interface: what a capability must offer to be used as a tool
 * by the agent. Tool authors guard their exo with `FaeToolInterface`.
 */
import { M } from '@endo/patterns';
import type { ToolSchema } from '../../providers/types.js';

export const FaeToolInterface = M.interface('FaeTool', {
  /** The OpenAI-format schema; its `function.name` is the name the model calls. */
  schema: M.call().returns(M.record()),
  /** Runs the tool; resolves with a passable result or rejects with an Error. */
  execute: M.call(M.record()).returns(M.promise()),
  /** Documentation for people and for the model. */
  help: M.call().returns(M.string()),
});

/** The shape of a FaeTool as seen through `E()`. */
export interface FaeTool {
  schema(): ToolSchema;
  execute(args: Record<string, unknown>): Promise<unknown>;
  help(): string;
}
