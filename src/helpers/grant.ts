/**
 * What a helper is given (behaviour 7.9): the powers the model names, each
 * one its parent holds, and nothing else. A tool is granted only from the
 * schemas the parent holds (the built-ins and dynamic tools its policy lets
 * through, a group with the ops it allows), so the helper's list is made
 * from the parent's and can only narrow; a pet name only when the parent
 * holds it (for a helper's helper: when that helper was given it): in a turn
 * of the HOST's never one of the agent's own names (the store boundary judges
 * a grant as every path a call gives), in another party's turn only that
 * party's own names (its facet, src/parties/). A helper mails no one, sets no schedules and
 * proposes no code: it hands back its result. Its own helpers come only
 * while the depth limit allows. Every name refused is named in one error.
 */
import type { ToolSchema } from '../../providers/types.js';
import { groupOfOp, isGroup, keepOps, offeredOps } from '../agent-tools/tool-groups.js';
import { helperRefusal, opRecord } from '../agent-tools/builtin-schemas.js';
import { TOOLBOX_NAME } from '../toolbox/toolbox.js';

/** The op of `mail` that makes a helper: granted (its record says so) only while the depth limit allows. */
const HELPER_OP = 'helper';

/** A helper is granted the tools themselves, never the toolbox's stand-in for them. */
const TOOLBOX_REFUSAL = 'name the tools themselves';

/**
 * Whether a helper given pet names may use this names op on them (when the parent holds it): its
 * record says it only reads the names it is given (src/agent-tools/builtin-schemas.ts).
 */
const onlyReads = (op: string): boolean => {
  const record = opRecord('names', op);
  return record?.effect === 'none' && record.touches.reads !== undefined;
};

export interface HeldPowers {
  /** The tool schemas the parent holds (policy-filtered). */
  schemas: readonly ToolSchema[];
  /** Whether the parent holds this pet-name path. */
  hasPath(path: readonly string[]): Promise<boolean>;
  /** Why a tool the parent does not hold is not held (the policy's words), if it is a tool at all. */
  whyNotHeld(name: string): string | undefined;
  /** Whether this helper may make helpers of its own (the depth limit). */
  canNest: boolean;
  /** How the depth limit is told, when it refuses. */
  depthLimit: string;
}

export interface Grant {
  /** The helper's tools: the parent's schemas, narrowed. */
  schemas: ToolSchema[];
  /** The pet-name paths it may reach, and everything under them. */
  paths: string[][];
  /** The tool and op names granted, as asked (for help() and notices). */
  named: string[];
}

const isHelperOpName = (name: string) => name === HELPER_OP;

/** Why one asked name cannot be granted as a tool, or undefined when it is a tool it may have. */
const toolRefusal = (name: string, held: HeldPowers): string | undefined => {
  if (isHelperOpName(name)) return held.canNest ? undefined : held.depthLimit;
  if (name === TOOLBOX_NAME) return TOOLBOX_REFUSAL;
  // What reaches beyond the task (mail, code, schedules): each built-in's record says (`forHelper`).
  return helperRefusal(name);
};

/** The ops of held group schemas asked for (by group name: all it holds), and held plain tools asked for. */
const pickTools = (names: readonly string[], held: HeldPowers) => {
  const byName = new Map(held.schemas.map(schema => [schema.function.name, schema]));
  const ops = new Set<string>();
  const tools = new Set<string>();
  const unheld: string[] = [];
  for (const name of names) {
    const schema = byName.get(name);
    const group = groupOfOp(name);
    const groupSchema = group === undefined ? undefined : byName.get(group);
    if (schema !== undefined && isGroup(name))
      for (const op of offeredOps(schema) ?? []) ops.add(op);
    else if (schema !== undefined) tools.add(name);
    else if (groupSchema !== undefined && (offeredOps(groupSchema) ?? []).includes(name))
      ops.add(name);
    else unheld.push(name);
  }
  return { byName, ops, tools, unheld };
};

/** The helper's schemas: the parent's own, each narrowed to what was granted. */
const narrowSchemas = (
  schemas: readonly ToolSchema[],
  tools: ReadonlySet<string>,
  ops: ReadonlySet<string>,
): ToolSchema[] =>
  schemas.flatMap(schema => {
    const name = schema.function.name;
    if (!isGroup(name)) return tools.has(name) ? [schema] : [];
    const kept = keepOps(schema, op => ops.has(op));
    return kept === undefined ? [] : [kept];
  });

export const decideGrant = async (asked: readonly string[], held: HeldPowers): Promise<Grant> => {
  const names = [...new Set(asked.map(name => name.trim()).filter(name => name !== ''))];
  const refused: string[] = [];
  const toolNames: string[] = [];
  for (const name of names) {
    const why = toolRefusal(name, held);
    if (why === undefined) toolNames.push(name);
    else refused.push(`"${name}" (${why})`);
  }
  const { ops, tools, unheld } = pickTools(toolNames, held);
  const paths: string[][] = [];
  /* eslint-disable no-await-in-loop -- a few names, each looked up once, in order */
  for (const name of unheld) {
    const path = name.split('/');
    const whyNot = held.whyNotHeld(name);
    if (whyNot !== undefined) refused.push(`"${name}" (${whyNot})`);
    else if (path.some(part => part === '')) refused.push(`"${name}" (not a pet name)`);
    else if (await held.hasPath(path)) paths.push(path);
    else refused.push(`"${name}" (not a tool or pet name you hold)`);
  }
  /* eslint-enable no-await-in-loop */
  if (refused.length > 0) throw new Error(`Not granted: ${refused.join('; ')}. Nothing was made.`);
  // Pet names are reached through names: the reading ops the parent holds come with them.
  if (paths.length > 0) {
    const namesSchema = held.schemas.find(schema => schema.function.name === 'names');
    const namesOps = namesSchema === undefined ? [] : (offeredOps(namesSchema) ?? []);
    for (const op of namesOps) if (onlyReads(op)) ops.add(op);
  }
  return {
    schemas: narrowSchemas(held.schemas, tools, ops),
    paths,
    named: [...tools, ...ops],
  };
};
harden(decideGrant);
