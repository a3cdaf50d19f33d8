/**
 * What makes an object in the guest's directory a tool, read from the methods it answers
 * (`__getMethodNames__`, which every far object has) rather than from how a failed call is
 * worded: a FaeTool (fae-tool.ts), or a source that offers FaeTools (tool-sources.ts, e.g. the
 * MCP bridge). The adoption of introduced names and the registry of tools/ both read it, and
 * the registry reads from the same answer whether a FaeTool can be stopped part-way (fae-tool.ts's
 * `executeUntil`, behaviour 6.7).
 */
import { E } from '@endo/far';
import type { Introspectable } from '../daemon/remote-objects.js';

const FAE_TOOL_METHODS = harden(['schema', 'execute', 'help']);
const TOOL_SOURCE_METHODS = harden(['listTools']);

export type ToolShape = 'tool' | 'source' | 'neither';

/** A FaeTool first: an object with both kinds of method is used as the tool it says it is. */
export const toolShapeOf = (methodNames: readonly unknown[]): ToolShape => {
  const has = (methods: readonly string[]) => methods.every(method => methodNames.includes(method));
  if (has(FAE_TOOL_METHODS)) return 'tool';
  if (has(TOOL_SOURCE_METHODS)) return 'source';
  return 'neither';
};
harden(toolShapeOf);

/** Whether a tool answers `executeUntil` (fae-tool.ts): the agent calls it so, and upstream's with `execute`. */
export const canStop = (methodNames: readonly unknown[]): boolean =>
  methodNames.includes('executeUntil');
harden(canStop);

/**
 * The methods an object answers, asked through `bounded` (a call that must answer in time); one
 * that cannot say is taken for an object of none. Asked beside its schema, not after it.
 */
export const methodNamesOf = (
  ref: unknown,
  bounded: <T>(what: string, call: () => unknown) => Promise<T>,
  what: string,
): Promise<string[]> =>
  bounded<string[]>(what, () => E(ref as Introspectable).__getMethodNames__()).catch(
    (): string[] => [],
  );
harden(methodNamesOf);
