/**
 * The tool caplets' settings as rows of the settings table
 * (providers/setting-row.ts), with the defaults their readers use
 * (./confine.ts, ./sandbox/sandbox-settings.ts, ./mcp/mcp-settings.ts), so
 * docs/configuration.md cannot drift from the code. A leaf: the readers
 * import their names and defaults from here.
 */
import { settingNames, type SettingRow } from '../../providers/setting-row.js';

/** runCommand's sandbox limits when unset (FAE_SANDBOX_*). */
export const DEFAULT_SANDBOX_LIMITS = harden({
  maxProcesses: 256,
  memoryMb: 2048,
  cpuSeconds: 60,
  fileMb: 1024,
});
harden(DEFAULT_SANDBOX_LIMITS);

/** An MCP tool call's time limit when MCP_TIMEOUT_MS is unset. */
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
harden(DEFAULT_MCP_TIMEOUT_MS);

const SANDBOX = 'readSandboxSettings (tools/lib/sandbox/sandbox-settings.ts)';
const MCP = 'readMcpSettings (tools/lib/mcp/mcp-settings.ts)';
const GUIDE_SANDBOX = 'See "runCommand\'s sandbox" in [daemon-guide.md](daemon-guide.md)';

/** The sandbox's switches: runCommand reads these; the MCP bridge has its own (MCP_*). */
const SANDBOX_SWITCHES: readonly SettingRow[] = [
  {
    env: 'FAE_RUN_COMMAND_UNSANDBOXED',
    default: 'off',
    read: `${SANDBOX}: an on/off word`,
    doc: `\`1\` lets \`runCommand\` run commands **without a sandbox** (with the daemon's rights) where bubblewrap is missing; without it the tool refuses. ${GUIDE_SANDBOX}`,
  },
  {
    env: 'FAE_SANDBOX_ALLOW_NETWORK',
    default: 'off',
    read: `${SANDBOX}: an on/off word`,
    doc: "`1` gives sandboxed commands the host's network (and `/etc/resolv.conf`, certificates); by default they have only a loopback of their own",
  },
];

/** The sandbox's limits: runCommand and a sandboxed MCP server both read these. */
const SANDBOX_LIMITS: readonly SettingRow[] = [
  {
    env: 'FAE_SANDBOX_MAX_PROCESSES',
    default: String(DEFAULT_SANDBOX_LIMITS.maxProcesses),
    read: `${SANDBOX}: a positive whole number`,
    doc: 'processes and threads a command may have at once (a pids cgroup; see "runCommand\'s sandbox" in [daemon-guide.md](daemon-guide.md))',
  },
  {
    env: 'FAE_SANDBOX_MEMORY_MB',
    default: String(DEFAULT_SANDBOX_LIMITS.memoryMb),
    read: `${SANDBOX}: a positive whole number`,
    doc: 'memory of a command: of all its processes together (a memory cgroup, where the worker may make one) and the address space of each (RLIMIT_AS)',
  },
  {
    env: 'FAE_SANDBOX_CPU_SECONDS',
    default: String(DEFAULT_SANDBOX_LIMITS.cpuSeconds),
    read: `${SANDBOX}: a positive whole number`,
    doc: 'CPU time of each process of a command (RLIMIT_CPU)',
  },
  {
    env: 'FAE_SANDBOX_FILE_MB',
    default: String(DEFAULT_SANDBOX_LIMITS.fileMb),
    read: `${SANDBOX}: a positive whole number`,
    doc: 'the largest file a command may write (RLIMIT_FSIZE)',
  },
];

const MCP_ROWS: readonly SettingRow[] = [
  {
    env: 'MCP_NAME',
    default: 'none',
    read: `${MCP}, and setup-tools (setup/mcp-bridge-plan.ts): 1 to 40 lower-case letters, digits or -`,
    doc: '`setup-tools.js`: make the MCP bridge `mcp-<name>` and give it to the Fae guest ([docs/mcp.md](mcp.md))',
  },
  {
    env: 'MCP_COMMAND',
    alsoEnv: ['MCP_ARGS'],
    default: 'none',
    read: `${MCP}: a command, and a JSON array of strings`,
    doc: 'the MCP bridge: a local server to start over stdio, and its arguments (a JSON array)',
  },
  {
    env: 'MCP_ENV',
    default: 'none',
    read: `${MCP}: variable names, separated by commas or spaces`,
    doc: 'the MCP bridge: names of variables passed on to a local server (secret-named ones are redacted everywhere it reports)',
  },
  {
    env: 'MCP_CWD',
    default: 'none',
    read: `${MCP}: an absolute folder`,
    doc: "the MCP bridge: the local server's folder, the only one it may write",
  },
  {
    env: 'MCP_READ_ONLY',
    default: 'none',
    read: `${MCP}: absolute folders, separated by commas`,
    doc: "the MCP bridge: folders a sandboxed server may read besides the system (a `.js` server's `node_modules` is found by itself)",
  },
  {
    env: 'MCP_URL',
    alsoEnv: ['MCP_AUTH_TOKEN_FILE'],
    default: 'none',
    read: `${MCP}: an http(s) URL with no credentials in it; an absolute path`,
    doc: 'the MCP bridge: a remote server (streamable HTTP) and the file holding its bearer token',
  },
  {
    env: 'MCP_ALLOW_NETWORK',
    default: 'off',
    read: `${MCP}: an on/off word`,
    doc: "`1` gives a sandboxed MCP server the host's network",
  },
  {
    env: 'MCP_UNSANDBOXED',
    default: 'off',
    read: `${MCP}: an on/off word`,
    doc: '`1` starts a local MCP server **without a sandbox** where bubblewrap is missing; without it the bridge refuses',
  },
  {
    env: 'MCP_TIMEOUT_MS',
    default: String(DEFAULT_MCP_TIMEOUT_MS),
    read: `${MCP}: a whole number of milliseconds`,
    doc: "an MCP tool call's time limit",
  },
];

/** Every setting of the tool caplets, as docs/configuration.md's rows. */
export const TOOL_SETTINGS: readonly SettingRow[] = harden([
  {
    env: 'FAE_CWD',
    default: 'none',
    read: 'toolRootFromEnv (tools/lib/confine.ts): an absolute path to a folder',
    doc: 'root folder of the file tools (`readFile`, `writeFile`, `editFile`, `listDir`, `runCommand`)',
  },
  ...SANDBOX_SWITCHES,
  ...SANDBOX_LIMITS,
  ...MCP_ROWS,
]);
harden(TOOL_SETTINGS);

/** Every variable the sandbox reads; setup-tools passes these to run-command-tool. */
export const SANDBOX_ENV_NAMES: readonly string[] = settingNames([
  ...SANDBOX_SWITCHES,
  ...SANDBOX_LIMITS,
]);
harden(SANDBOX_ENV_NAMES);

/** Every variable the bridge reads; setup-tools passes exactly these to `mcp-<name>`. */
export const MCP_ENV_NAMES: readonly string[] = settingNames([...MCP_ROWS, ...SANDBOX_LIMITS]);
harden(MCP_ENV_NAMES);
