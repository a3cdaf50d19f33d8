/**
 * Which tool caplets setup-tools makes, under which pet names, from which
 * modules: the example tools always, the rooted ones only with a root.
 */
import {
  exampleToolNames,
  rootedToolNames,
  toolModuleFiles,
  toolModuleUrl,
  type ToolName,
} from '../tools/index.js';
import { SANDBOX_ENV_NAMES } from '../tools/lib/tool-settings.js';
import type { ToolCapletPlan } from './make-tool-caplets.js';
import { pickEnv, type SourceEnv } from './passed-env.js';

/** Where a tool's module is; the built `dist/tools/<file>.js` unless a test says otherwise. */
export type ToolSpecifier = (name: ToolName) => string;

/** The host's pet name for a tool: its module's kebab-case name plus `-tool` (`readFile` → `read-file-tool`). */
export const toolPetName = (name: ToolName): string =>
  `${toolModuleFiles[name].replace(/\.js$/, '')}-tool`;
harden(toolPetName);

export const planToolCaplets = (options: {
  /** Absolute root for the file tools and runCommand; they are left out without it. */
  faeCwd: string | undefined;
  toolSpecifier?: ToolSpecifier;
  /** The setup script's environment: runCommand's sandbox settings (FAE_SANDBOX_*, the opt-out) come from it. */
  env?: SourceEnv;
}): ToolCapletPlan[] => {
  const specifierOf = options.toolSpecifier ?? toolModuleUrl;
  const { faeCwd } = options;
  const plan = (name: ToolName, env: Record<string, string>): ToolCapletPlan =>
    harden({ petName: toolPetName(name), specifier: specifierOf(name), env: harden(env) });
  return [
    ...exampleToolNames.map(name => plan(name, {})),
    ...(faeCwd === undefined
      ? []
      : rootedToolNames.map(name =>
          plan(name, {
            FAE_CWD: faeCwd,
            ...(name === 'runCommand' ? pickEnv(options.env ?? {}, SANDBOX_ENV_NAMES) : {}),
          }),
        )),
  ];
};
harden(planToolCaplets);
