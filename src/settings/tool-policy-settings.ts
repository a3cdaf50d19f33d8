/**
 * How the tool policy's lists are read from the environment (src/policy/tool-policy.ts
 * holds the policy they make): LAL_TOOLS_ALLOW, LAL_TOOLS_DENY, LAL_TOOLS_APPROVE and
 * LAL_TOOLS_CONFIRM and LAL_TRUSTED_SENDERS, each a comma-separated list of names. A settings reader, so the
 * config reads it without importing the policy (docs/architecture.md, "Layers").
 */
import type { Env } from '../../providers/types.js';
import { closestNames } from '../../providers/closest-names.js';

/**
 * Each list the policy reads, and what it means when it is set but names
 * nothing (`,`): an empty list, read as written, so the two that grant
 * (LAL_TOOLS_ALLOW, LAL_TRUSTED_SENDERS) grant nothing rather than everything.
 */
const EMPTY_MEANS: Readonly<Record<string, string>> = {
  LAL_TOOLS_ALLOW: 'names no tool, so no tool is offered (unset, every tool is)',
  LAL_TOOLS_DENY: 'names no tool, so no tool is denied',
  LAL_TOOLS_APPROVE: 'names no tool, so no call asks the HOST first',
  LAL_TOOLS_CONFIRM: "names no tool, so no call asks the HOST first on the HOST's own turns",
  LAL_TRUSTED_SENDERS:
    "names no sender, so no sender is trusted: every gated call asks the HOST, even the HOST's own",
};

const POLICY_ENV_NAMES: readonly string[] = harden(Object.keys(EMPTY_MEANS));

/** The names of a comma-separated list, spaces and empty items left out. */
const namesIn = (text: string): string[] =>
  text
    .split(',')
    .map(part => part.trim())
    .filter(part => part !== '');

/** A blank value is unset, as for every other variable; any other is a list, even one naming nothing. */
export const readNames = (env: Env, name: string): Set<string> | undefined => {
  const text = env[name];
  return text === undefined || text.trim() === '' ? undefined : new Set(namesIn(text));
};
harden(readNames);

/**
 * The policy's lists that are set but name nothing (`,`): almost surely a
 * mistake, so the HOST is told at start (src/config/config.ts) what that
 * means; the list is read as written, an empty list.
 */
export const toolPolicyProblems = (env: Env): string[] =>
  POLICY_ENV_NAMES.flatMap(name => {
    const text = env[name];
    if (text === undefined || text.trim() === '' || namesIn(text).length > 0) return [];
    return [`${name} is ${JSON.stringify(text)}: it ${EMPTY_MEANS[name]}.`];
  });
harden(toolPolicyProblems);

/** The lists that name tools (LAL_TRUSTED_SENDERS names senders). */
const TOOL_LISTS: readonly string[] = harden(
  POLICY_ENV_NAMES.filter(name => name.startsWith('LAL_TOOLS_')),
);

/**
 * One line per tool name in the policy's lists that names no tool known at
 * start (`known`: the built-ins, their groups and ops, and the tools there
 * are to attach), with the nearest known ones: a misspelt name would
 * otherwise deny or gate nothing, silently. The name is kept as written and
 * never refused, since a tool attached later (an MCP server's) may bear it.
 */
export const unknownToolNames = (env: Env, known: Iterable<string>): string[] => {
  const knownSet = new Set(known);
  return [...TOOL_LISTS].sort().flatMap(list =>
    namesIn(env[list] ?? '')
      .filter(name => !knownSet.has(name))
      .map(name => {
        const near = closestNames(name, knownSet);
        return `${list} names ${name}, no tool known at start${near.length > 0 ? `; did you mean ${near.join(' or ')}?` : ' (a tool attached later under that name is judged by it)'}`;
      }),
  );
};
harden(unknownToolNames);
