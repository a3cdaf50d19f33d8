/**
 * The tool names an agent answers to itself, whatever it holds: the
 * built-ins (their groups and ops) and the toolbox. No FaeTool may take one
 * (../agent-tools/fae-tool-registry.ts), and a policy list's name that is
 * none of these, nor a tool of this package, nor a tool there is at start is said, with the nearest
 * (../settings/tool-policy-settings.ts's `unknownToolNames`): by the agent at
 * start, and by setup.ts and `npm start` beside the tools this package gives.
 */
import type { Env } from '../../providers/types.js';
import { BUILTIN_NAMES } from '../agent-tools/builtin-schemas.js';
import { PACKAGE_TOOL_FILES } from '../agent-tools/package-tools.js';
import { unknownToolNames } from '../settings/tool-policy-settings.js';
import { TOOLBOX_NAME } from './toolbox.js';

export const OWN_TOOL_NAMES: readonly string[] = harden([...BUILTIN_NAMES, TOOLBOX_NAME]);
harden(OWN_TOOL_NAMES);

/**
 * One line per name in LAL_TOOLS_ALLOW/DENY/APPROVE/CONFIRM that is no tool
 * known: the agent's own, this package's (tools/, given or not) or `held`.
 */
export const unknownPolicyToolNames = (env: Env, held: Iterable<string>): string[] =>
  unknownToolNames(env, [...OWN_TOOL_NAMES, ...Object.keys(PACKAGE_TOOL_FILES), ...held]);
harden(unknownPolicyToolNames);
