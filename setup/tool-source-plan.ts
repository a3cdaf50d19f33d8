/**
 * The tool source caplet setup-tools makes when FAE_TOOL_MODULES is set
 * (tools/tool-source.ts, docs/daemon-guide.md "A Fae with a hundred tools"):
 * `FAE_TOOL_SOURCE` (`tool-source` by default), passed TOOL_MODULES (each
 * path made absolute, relative to where the script runs), FAE_CWD when set,
 * and the variables FAE_TOOL_ENV names. Checked before anything is made.
 */
import { Fail, q } from '@endo/errors';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isToolName } from '../tools/index.js';
import { toolModuleEntries, toolModuleSpecifier } from '../tools/tool-source.js';
import type { ToolCapletPlan } from './make-tool-caplets.js';
import { assertModuleExists } from './module-specifier.js';
import { pickEnv, type SourceEnv } from './passed-env.js';

const PET_NAME = /^[a-z0-9][a-z0-9-]{0,127}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A list setting: separated by commas (or spaces), blanks dropped. */
const listSetting = (raw: string | undefined): string[] =>
  (raw ?? '').split(/[\s,]+/).filter(each => each !== '');

export const planToolSource = (
  env: SourceEnv,
  cwd: string,
  specifier: string,
): ToolCapletPlan | undefined => {
  const entries = toolModuleEntries(env.FAE_TOOL_MODULES);
  if (entries.length === 0) return undefined;
  const petName = (env.FAE_TOOL_SOURCE ?? '').trim() || 'tool-source';
  PET_NAME.test(petName) ||
    Fail`FAE_TOOL_SOURCE must be a pet name (lower case, digits, -), got ${q(petName)}`;
  // A built-in tool by its name, else a module: made absolute here, where "relative" means something.
  const modules = entries.map(entry => {
    if (isToolName(entry) || entry.startsWith('file://')) return entry;
    const absolute = path.resolve(cwd, entry);
    assertModuleExists(pathToFileURL(absolute).href);
    return absolute;
  });
  for (const entry of modules) toolModuleSpecifier(entry);
  const passed = listSetting(env.FAE_TOOL_ENV);
  for (const name of passed)
    ENV_NAME.test(name) ||
      Fail`FAE_TOOL_ENV names variables to pass to the tool source, separated by commas; ${q(name)} cannot be one`;
  return harden({
    petName,
    specifier,
    env: harden({ ...pickEnv(env, ['FAE_CWD', ...passed]), TOOL_MODULES: modules.join(',') }),
  });
};
harden(planToolSource);

/** FAE_TOOL_ISOLATE: the tool caplets (by pet name) made in a worker of their own; each must be one this run makes. */
export const readIsolated = (
  env: SourceEnv,
  plans: readonly ToolCapletPlan[],
): ReadonlySet<string> => {
  const made = plans.map(plan => plan.petName);
  const named = listSetting(env.FAE_TOOL_ISOLATE);
  for (const name of named)
    made.includes(name) ||
      Fail`FAE_TOOL_ISOLATE names ${q(name)}, which this run does not make; it makes ${q(made.join(', '))}`;
  return new Set(named);
};
harden(readIsolated);
