/**
 * Which tools the model is offered and which calls the HOST must approve
 * first, from the environment: LAL_TOOLS_ALLOW (only these, when set),
 * LAL_TOOLS_DENY (never these), LAL_TOOLS_APPROVE (every call asks the HOST
 * first), LAL_TRUSTED_SENDERS (pet names, default HOST, whose messages
 * may use approval-gated tools without asking) and LAL_TOOLS_CONFIRM (every
 * call asks the HOST first, whoever is served: the HOST's own turns too, as
 * `npm start` asks before a side-effecting tool). Names are tools' call
 * names, built-in or FaeTool; for a grouped built-in (`names`, `mail`) the
 * group's name stands for all its ops, and an op's name (`remove`, the
 * tool's former name) for that op alone: a group is offered with the ops
 * the policy allows, and a call is judged by its op and its group.
 * An in-process host may keep the LAL_TOOLS_CONFIRM list itself (`npm start`,
 * whose person answers "always" mid-run): then the policy reads it at each
 * call. Whatever asks says why, naming what really made it ask.
 */
import type { Env, ToolSchema } from '../../providers/types.js';
import { isGroup, keepOps } from '../agent-tools/tool-groups.js';
import { HOST_NAMES, SPECIAL_NAMES } from '../daemon/special-names.js';
import { readNames } from '../settings/tool-policy-settings.js';

/** The names a call is known by, most specific first (its op, then its group, for a grouped tool). */
type CallNames = readonly string[];

/**
 * Which calls the HOST wants put to it first whoever is served, kept by an
 * in-process host and read at each call, in place of LAL_TOOLS_CONFIRM
 * (`npm start`: sim/chat/approvals.ts, the one owner of its "always" answers).
 */
export interface HostConfirm {
  /** Why a call known by these names is put to the HOST first, or undefined when it is not. */
  why(names: CallNames): string | undefined;
  /** For help(): the tools asked about now. */
  tools(): readonly string[];
  /** For help(): who keeps the list (`npm start: its default and LAL_TOOLS_CONFIRM, less the answers of always`). */
  source: string;
}

export interface ToolPolicy {
  /** Whether the model may be offered (and call) this tool, or this op of a grouped tool. */
  allows(names: CallNames): boolean;
  /** Whether a call of this tool, while serving this sender's message, must first be approved by the HOST. */
  needsApproval(names: CallNames, sender: string | undefined): boolean;
  /** Why the policy itself puts this call to the HOST first, naming the setting that does; undefined when it does not. */
  whyAsked(names: CallNames, sender: string | undefined): string | undefined;
  /** The schemas the policy lets through, a grouped tool's with the ops it allows. */
  offered(schemas: readonly ToolSchema[]): ToolSchema[];
  /** Whether this sender is trusted (LAL_TRUSTED_SENDERS): its mail is also served first. */
  trusts(sender: string): boolean;
  /** The pet names LAL_TRUSTED_SENDERS trusts, which no tool may create, change or remove. */
  trustedNames(): readonly string[];
  /** Why a call was refused, for the model. */
  refusal(names: CallNames): string;
  /** For help(): the policy in force, one line per rule, the HOST named as the daemon names it. */
  describe(host?: string): string[];
}

export const readToolPolicy = (env: Env, hostConfirm?: HostConfirm): ToolPolicy => {
  const allow = readNames(env, 'LAL_TOOLS_ALLOW');
  const deny = readNames(env, 'LAL_TOOLS_DENY') ?? new Set<string>();
  const approve = readNames(env, 'LAL_TOOLS_APPROVE') ?? new Set<string>();
  const trusted = readNames(env, 'LAL_TRUSTED_SENDERS') ?? new Set(HOST_NAMES);
  const confirmed = readNames(env, 'LAL_TOOLS_CONFIRM') ?? new Set<string>();
  const any = (set: ReadonlySet<string>, names: CallNames) => names.some(name => set.has(name));
  const confirm: HostConfirm = hostConfirm ?? {
    why: names => (any(confirmed, names) ? 'LAL_TOOLS_CONFIRM names this tool' : undefined),
    tools: () => [...confirmed],
    source: 'LAL_TOOLS_CONFIRM',
  };
  const allows = (names: CallNames) =>
    !any(deny, names) && (allow === undefined || any(allow, names));
  const whyAsked = (names: CallNames, sender: string | undefined) => {
    const confirming = confirm.why(names);
    if (confirming !== undefined) return confirming;
    if (!any(approve, names) || (sender !== undefined && trusted.has(sender))) return undefined;
    return sender === undefined
      ? 'LAL_TOOLS_APPROVE gates this tool'
      : `LAL_TOOLS_APPROVE gates this tool for ${sender}, whom LAL_TRUSTED_SENDERS does not name`;
  };
  return {
    allows,
    needsApproval: (names, sender) => whyAsked(names, sender) !== undefined,
    whyAsked,
    trusts: sender => trusted.has(sender),
    trustedNames: () => [...trusted],
    offered: schemas =>
      schemas.flatMap(schema => {
        const name = schema.function.name;
        if (!isGroup(name)) return allows([name]) ? [schema] : [];
        const kept = keepOps(schema, op => allows([op, name]));
        return kept === undefined ? [] : [kept];
      }),
    refusal: names => {
      const name = names[0] ?? '';
      return any(deny, names)
        ? `The tool "${name}" is not allowed here (LAL_TOOLS_DENY). Do without it, or tell the sender you cannot.`
        : `The tool "${name}" is not allowed here (it is not in LAL_TOOLS_ALLOW). Do without it, or tell the sender you cannot.`;
    },
    describe: (host = SPECIAL_NAMES.f0a46042a.host) => [
      ...(allow === undefined
        ? []
        : [`only these tools: ${allow.size === 0 ? 'none' : [...allow].join(', ')}`]),
      ...(deny.size === 0 ? [] : [`never these tools: ${[...deny].join(', ')}`]),
      ...(approve.size === 0
        ? []
        : [
            `${host} approves each call of: ${[...approve].join(', ')} (${trusted.size === 0 ? 'asked whoever is served' : `not asked while serving ${[...trusted].join(', ')}`})`,
          ]),
      ...(confirm.tools().length === 0
        ? []
        : [
            `${host} confirms each call of: ${confirm.tools().join(', ')} (asked whoever is served, ${host} too: ${confirm.source})`,
          ]),
    ],
  };
};
harden(readToolPolicy);
