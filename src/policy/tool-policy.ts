/**
 * Which tools the model is offered and which calls the HOST must approve
 * first, from the environment: LAL_TOOLS_ALLOW (only these, when set),
 * LAL_TOOLS_DENY (never these), LAL_TOOLS_APPROVE (every call asks the HOST
 * first) and LAL_TRUSTED_SENDERS (pet names, default HOST, whose messages
 * may use approval-gated tools without asking). Names are tools' call
 * names, built-in or FaeTool.
 */
import type { Env, ToolSchema } from '../../providers/types.js';

export const POLICY_ENV_NAMES: readonly string[] = harden(['LAL_TOOLS_ALLOW', 'LAL_TOOLS_DENY', 'LAL_TOOLS_APPROVE', 'LAL_TRUSTED_SENDERS']);

export interface ToolPolicy {
  /** Whether the model may be offered (and call) this tool. */
  allows(name: string): boolean;
  /** Whether a call of this tool, while serving this sender's message, must first be approved by the HOST. */
  needsApproval(name: string, sender: string | undefined): boolean;
  /** The schemas the policy lets through. */
  offered(schemas: readonly ToolSchema[]): ToolSchema[];
  /** Why a call was refused, for the model. */
  refusal(name: string): string;
  /** For help(): the policy in force, one line per rule. */
  describe(): string[];
}

const readNames = (env: Env, name: string): Set<string> | undefined => {
  const text = env[name];
  if (text === undefined || text.trim() === '') return undefined;
  return new Set(text.split(',').map(part => part.trim()).filter(part => part !== ''));
};

export const readToolPolicy = (env: Env): ToolPolicy => {
  const allow = readNames(env, 'LAL_TOOLS_ALLOW');
  const deny = readNames(env, 'LAL_TOOLS_DENY') ?? new Set<string>();
  const approve = readNames(env, 'LAL_TOOLS_APPROVE') ?? new Set<string>();
  const trusted = readNames(env, 'LAL_TRUSTED_SENDERS') ?? new Set(['HOST', '@host']);
  const allows = (name: string) => !deny.has(name) && (allow === undefined || allow.has(name));
  return {
    allows,
    needsApproval: (name, sender) => approve.has(name) && (sender === undefined || !trusted.has(sender)),
    offered: schemas => schemas.filter(schema => allows(schema.function.name)),
    refusal: name =>
      deny.has(name)
        ? `The tool "${name}" is not allowed here (LAL_TOOLS_DENY). Do without it, or tell the sender you cannot.`
        : `The tool "${name}" is not allowed here (it is not in LAL_TOOLS_ALLOW). Do without it, or tell the sender you cannot.`,
    describe: () => [
      ...(allow === undefined ? [] : [`only these tools: ${[...allow].join(', ')}`]),
      ...(deny.size === 0 ? [] : [`never these tools: ${[...deny].join(', ')}`]),
      ...(approve.size === 0
        ? []
        : [`the HOST approves each call of: ${[...approve].join(', ')} (not asked while serving ${[...trusted].join(', ') || 'no one'})`]),
    ],
  };
};
