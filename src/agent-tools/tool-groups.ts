/**
 * Built-in tools that share a purpose are offered as one tool with an `op`
 * (every tool definition costs some 34 tokens of JSON structure in a chat
 * template before it says anything, and is paid on every request). The ops
 * are the names these tools had when each was a tool of its own, and a call
 * by such a name still works: `list({petNamePath})` is `names({op: "list",
 * path})`. Policies (LAL_TOOLS_ALLOW/DENY/APPROVE) may name a group (all its
 * ops) or an op.
 */
import type { ToolSchema } from '../../providers/types.js';
import type { Args } from './read-args.js';
import { BUILTIN_DEFINITIONS, builtinDefinition, describeOps } from './builtin-schemas.js';

export const TOOL_GROUPS: Readonly<Record<string, readonly string[]>> = harden(
  Object.fromEntries(
    BUILTIN_DEFINITIONS.flatMap(definition =>
      definition.ops === undefined ? [] : [[definition.name, Object.keys(definition.ops)]],
    ),
  ),
);
harden(TOOL_GROUPS);

/** Op (a former tool name) → its group. */
const GROUP_OF_OP: ReadonlyMap<string, string> = new Map(
  Object.entries(TOOL_GROUPS).flatMap(([group, ops]) => ops.map(op => [op, group] as const)),
);

export const isGroup = (name: string): boolean => Object.hasOwn(TOOL_GROUPS, name);
harden(isGroup);

export const groupOfOp = (op: string): string | undefined => GROUP_OF_OP.get(op);
harden(groupOfOp);

/** A built-in call as its group and op. */
export interface GroupedCall {
  group: string;
  op: string;
}

const opsText = (group: string) => (TOOL_GROUPS[group] ?? []).join(', ');

/**
 * The group and op of a call to a group (`names` with `op`) or by a former
 * tool name (`list`); undefined for any other tool. Throws, for the model,
 * when a group's op is missing or not one of its own.
 */
export const groupedCall = (name: string, args: Args): GroupedCall | undefined => {
  const aliased = GROUP_OF_OP.get(name);
  if (aliased !== undefined) return { group: aliased, op: name };
  if (!isGroup(name)) return undefined;
  const op = args.op;
  if (op === undefined || op === null || op === '')
    throw new Error(`op is required: one of ${opsText(name)}`);
  if (typeof op !== 'string' || !(TOOL_GROUPS[name] ?? []).includes(op)) {
    const other = typeof op === 'string' ? GROUP_OF_OP.get(op) : undefined;
    // An op of the other group: say where it is, as a model that mixes them up needs to know.
    const elsewhere = other === undefined ? '' : ` (${op} is an op of ${other})`;
    throw new Error(
      `${name} has no op ${JSON.stringify(op)}${elsewhere}: use one of ${opsText(name)}`,
    );
  }
  return { group: name, op };
};
harden(groupedCall);

/** The ops a grouped tool's schema offers (its `op` enum); undefined for other tools. */
export const offeredOps = (schema: ToolSchema): readonly string[] | undefined => {
  if (!isGroup(schema.function.name)) return undefined;
  const values = schema.function.parameters.properties?.op?.enum;
  return values === undefined
    ? TOOL_GROUPS[schema.function.name]
    : values.filter((value): value is string => typeof value === 'string');
};
harden(offeredOps);

/** A grouped tool's schema offering only the ops `keep` lets through; undefined when none is left. Other schemas pass unchanged. */
export const keepOps = (
  schema: ToolSchema,
  keep: (op: string) => boolean,
): ToolSchema | undefined => {
  const ops = offeredOps(schema);
  if (ops === undefined) return schema;
  const kept = ops.filter(keep);
  if (kept.length === 0) return undefined;
  if (kept.length === ops.length) return schema;
  const parameters = schema.function.parameters;
  const properties = { ...parameters.properties, op: { ...parameters.properties?.op, enum: kept } };
  // The description names only the ops kept (a group's words contain no daemon's special names,
  // so none is lost to the newest daemon's respelling, speak-generation.ts).
  const definition = builtinDefinition(schema.function.name);
  const description =
    definition?.sections === undefined
      ? schema.function.description
      : describeOps(definition.ops ?? {}, definition.sections, kept);
  return harden({
    ...schema,
    function: { ...schema.function, description, parameters: { ...parameters, properties } },
  });
};
harden(keepOps);

/** The schemas with only the tools and ops `keep` lets through, by name (a group left with no op goes too). */
export const keepNames = (
  schemas: readonly ToolSchema[],
  keep: (name: string) => boolean,
): ToolSchema[] =>
  schemas.flatMap(schema => (keep(schema.function.name) ? (keepOps(schema, keep) ?? []) : []));
harden(keepNames);
