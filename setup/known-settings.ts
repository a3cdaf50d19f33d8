/**
 * Every LAL_/FAE_ variable some part of lal-fae reads, so a misspelt one in
 * `.env` or the shell is named instead of silently ignored. The names come
 * from the settings tables (providers/setting-row.ts says which).
 */
import { closestNames } from '../providers/closest-names.js';
import { SANDBOX_ENV_NAMES } from '../tools/lib/tool-settings.js';
import { PASSED_ENV_NAMES, type SourceEnv } from './passed-env.js';
import { SETUP_ENV_NAMES } from './setup-settings.js';
import { unknownPolicyToolNames } from '../src/toolbox/own-tool-names.js';

/** Every LAL_/FAE_ variable read anywhere; docs/configuration.md has each (test/docs-configuration.test.ts). */
export const KNOWN_SETTINGS: readonly string[] = [
  ...new Set([...PASSED_ENV_NAMES, ...SANDBOX_ENV_NAMES, ...SETUP_ENV_NAMES]),
];
harden(KNOWN_SETTINGS);
const KNOWN = new Set(KNOWN_SETTINGS);
const OURS = /^(LAL|FAE)_/;

/**
 * One warning per LAL_/FAE_ variable no part of lal-fae reads, naming the
 * closest known ones. A `<NAME>_FILE` of a known variable, and the token
 * variables LAL_FALLBACK names, count as known.
 */
export const unknownSettings = (env: SourceEnv, alsoKnown: readonly string[] = []): string[] =>
  Object.keys(env)
    .filter(name => OURS.test(name) && env[name] !== undefined)
    .filter(name => !KNOWN.has(name) && !alsoKnown.includes(name))
    .filter(name => !(name.endsWith('_FILE') && KNOWN.has(name.slice(0, -'_FILE'.length))))
    .sort()
    .map(name => {
      const near = closestNames(name, KNOWN);
      return `${name} is not a setting of lal-fae${near.length > 0 ? `; did you mean ${near.join(' or ')}?` : ' (see the configuration table)'}`;
    });
harden(unknownSettings);

/**
 * One warning per tool name in LAL_TOOLS_ALLOW/DENY/APPROVE/CONFIRM that no
 * tool known before the agent starts bears (its own, and the tools this
 * package gives), with the nearest: setup.ts and `npm start` say it; the
 * agent says it again at start, knowing the tools it then holds.
 */
export const unknownPolicyTools = (env: SourceEnv): string[] => unknownPolicyToolNames(env, []);
harden(unknownPolicyTools);
