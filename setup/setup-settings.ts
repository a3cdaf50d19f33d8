/**
 * The setup scripts' and the developers' commands' settings as rows of the
 * settings table (providers/setting-row.ts); none is passed to a caplet.
 * setup/known-settings.ts names them for the misspelt-setting check, and
 * docs/configuration.md is held to them (test/docs-configuration.test.ts).
 */
import { settingNames, type SettingRow } from '../providers/setting-row.js';
import { ENDO_LLM_ENV } from './endo-llm-env.js';

const [firstEndoName = '', ...otherEndoNames] = Object.keys(ENDO_LLM_ENV);

/** Read by setup.js, setup-tools.js and the agent manager. */
const SETUP_ROWS: readonly SettingRow[] = [
  {
    env: 'LAL_PIN',
    default: 'on',
    read: 'readPin (setup/read-setup-env.ts): an on/off word',
    doc: "setup scripts only: pin the agent in the host's `PINS` so the daemon starts it again after a restart; `0` leaves it unpinned (and removes an earlier pin)",
  },
  {
    env: 'LAL_RESTART',
    default: 'off',
    read: 'readRestart (setup/read-setup-env.ts): an on/off word',
    doc: 'setup scripts only: `1` replaces a running agent (and, on the newest daemon, the agent manager) with one started with the current settings (and unpins the old one first); without it a running agent is kept',
  },
  {
    env: 'FAE_GUEST',
    default: 'none',
    read: 'setup-tools.ts: a pet name',
    doc: '`setup-tools.js` only: the guest (`fae`) given every tool it makes; without it (or `LAL_NAME`) only the tools are made',
  },
  {
    env: 'FAE_TOOL_MODULES',
    default: 'none',
    read: 'planToolSource (setup/tool-source-plan.ts): comma-separated names or paths',
    doc: "`setup-tools.js` only: the modules whose FaeTools one tool source caplet offers (`tools/tool-source.ts`, given them as its `TOOL_MODULES`), separated by commas: a built-in tool's name (`math`, `readFile`, …) or a module's path (made absolute), whose `make()` answers a FaeTool or a list of them; the source goes to the guest's `tools/` like any tool, so a hundred tools are one caplet (the daemon guide's \"A Fae with a hundred tools\")",
  },
  {
    env: 'FAE_TOOL_SOURCE',
    default: '`tool-source`',
    read: 'planToolSource (setup/tool-source-plan.ts): a pet name',
    doc: '`setup-tools.js` only: the pet name of that tool source caplet; another name makes another source',
  },
  {
    env: 'FAE_TOOL_ENV',
    default: 'none',
    read: 'planToolSource (setup/tool-source-plan.ts): comma-separated names',
    doc: "`setup-tools.js` only: names of variables passed on to the tool source, whose modules read them (the source's `env`), separated by commas",
  },
  {
    env: 'FAE_TOOL_ISOLATE',
    default: 'none',
    read: 'readIsolated (setup/tool-source-plan.ts): comma-separated pet names',
    doc: "`setup-tools.js` only: tool caplets this run makes (`run-command-tool`, `mcp-files`, `tool-source`, …), separated by commas, each made in a worker of its own (`worker-for-<name>`) rather than the guest's, where the others share the agent's: a process each (some 55 MB), so a tool that crashes or hangs its worker takes no other down",
  },
  {
    env: 'LAL_WORKER',
    default: '`worker-for-<guest>`',
    read: 'readWorker (setup/read-setup-env.ts): a pet name',
    doc: "setup scripts only: the worker the agent (and, for `setup-tools.js`, its tool caplets and MCP bridge) runs in; `setup.js` on the newest daemon starts the agent manager by the same rule, in `worker-for-setup-lal` by default. By default one of its own, so a fault that ends a worker (a collected directory, a crash) takes no other agent down; `MAIN` (`@main` on the newest daemon) shares the daemon's main worker, another name shares that worker",
  },
  {
    env: 'LAL_FORM',
    default: 'on',
    read: 'readForm (setup/read-setup-env.ts): an on/off word',
    doc: '`setup.js` on the newest daemon only: also start the agent manager (guest `setup-lal`) that sends you the "Add an agent" form; `0` leaves it out',
  },
  {
    env: 'LAL_AGENT_MODULE',
    default: 'set by `setup.js`',
    read: 'the agent manager (agent-manager.ts): a `file://` URL',
    doc: 'the agent manager only: the agent module (`dist/agent.js`, a `file://` URL) it starts for each submitted form',
  },
  {
    env: firstEndoName,
    alsoEnv: otherEndoNames,
    default: 'none',
    read: 'readEndoLlmEnv (setup/endo-llm-env.ts)',
    doc: "setup scripts only: upstream Lal's names, read as `LAL_HOST`, `LAL_MODEL`, `LAL_AUTH_TOKEN`, `LAL_NAME`, `LAL_ROUTER_MODEL`. When both are set the `ENDO_LLM_*` one wins (upstream's agentry reads the pair in that order) and the script says so, by name; the agent is passed only the `LAL_*` name. `ENDO_LLM_AUTH_TOKEN` with `LAL_AUTH_TOKEN_FILE` is an error",
  },
];

/** Read by the project's own commands (docs/configuration.md, "For developers"). */
const DEVELOPER_ROWS: readonly SettingRow[] = [
  {
    env: 'LAL_SIM_NO_BUILD',
    default: 'off',
    read: 'scripts/built.mjs: `1` or not',
    doc: "`npm start`, `npm run transcript`, `bench`, `conformance`: `1` skips the check that `dist/` is newer than the sources (the tests set it after `npm run build`); without it they build only when a source is newer, never for `--help` (on a fresh clone, with no `dist/` yet, `npm start -- --help`, `npm run model-double -- --help` and `npm run bench -- --help` print their usage from their `usage.ts`, laid out at the terminal's width by `sim/chat/print-lines.ts` as once built, both compiled in memory from their sources; transcript and conformance build first)",
  },
  {
    env: 'LAL_MUTATION_CONCURRENCY',
    default: '2',
    read: 'stryker.config.mjs: a whole number',
    doc: "`npm run mutation`: Stryker's concurrency",
  },
];

/** Every row of setup's and the developers' settings, as docs/configuration.md shows them. */
export const SETUP_SETTINGS: readonly SettingRow[] = harden([...SETUP_ROWS, ...DEVELOPER_ROWS]);
harden(SETUP_SETTINGS);

/**
 * Set by a command for the child process it starts, never by hand, so the
 * page names them in a sentence rather than a row.
 */
const INTERNAL_ENV_NAMES: readonly string[] = [
  'LAL_MUTATION_TESTS',
  'LAL_MUTATION_REPORT',
  'LAL_MUTATION_INCREMENTAL',
  'LAL_BENCH_CHILD',
];

/** Every variable setup and the developers' commands read; never passed to a caplet. */
export const SETUP_ENV_NAMES: readonly string[] = harden([
  ...settingNames(SETUP_SETTINGS),
  ...INTERNAL_ENV_NAMES,
]);
harden(SETUP_ENV_NAMES);
