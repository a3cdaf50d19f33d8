/**
 * The FaeTool interface: what a capability must offer to be used as a tool
 * by the agent. Tool authors guard their exo with `FaeToolInterface`, as
 * upstream Endo's are guarded; a tool that can stop a call part-way guards it
 * with `StoppableFaeToolInterface`, which adds `executeUntil` (behaviour 6.7,
 * docs/daemon-guide.md's contract for tool authors). The agent reads which of the two a tool is from the
 * methods it answers (tool-shape.ts), and calls `execute` with one argument
 * only, as upstream's guard demands.
 */
import { M } from '@endo/patterns';
import type { ToolSchema } from '../../providers/types.js';

const FAE_TOOL_METHODS = {
  /** The OpenAI-format schema; its `function.name` is the name the model calls. */
  schema: M.call().returns(M.record()),
  /** Runs the tool; resolves with a passable result or rejects with an Error. */
  execute: M.call(M.record()).returns(M.promise()),
  /** Documentation for people and for the model. */
  help: M.call().returns(M.string()),
};

export const FaeToolInterface = M.interface('FaeTool', FAE_TOOL_METHODS);

export const StoppableFaeToolInterface = M.interface('StoppableFaeTool', {
  ...FAE_TOOL_METHODS,
  /**
   * Runs the tool as `execute` does, until `stopped` settles (either way, a far promise across
   * CapTP too): then a call still running stops (a command's process group is killed) and says so.
   * The caller settles it once it no longer waits: the turn was cancelled, the call ran past its
   * time limit, or it answered.
   */
  executeUntil: M.call(M.record(), M.promise()).returns(M.promise()),
});

/** The shape of a FaeTool as seen through `E()`; `executeUntil` only where the tool offers it. */
export interface FaeTool {
  schema(): ToolSchema;
  execute(args: Record<string, unknown>): Promise<unknown>;
  executeUntil?(args: Record<string, unknown>, stopped: Promise<unknown>): Promise<unknown>;
  help(): string;
}
