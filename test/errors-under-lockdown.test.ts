/**
 * Configuration and invariant errors are made with Fail/q/makeError (from
 * `@endo/errors`; CONTRIBUTING.md, conventions). The tests' own lockdown is the
 * debugging one, which shows every substitution; the daemon's worker locks
 * down with errors tamed, where an unquoted substitution reads "(a string)".
 * So the built modules are run here in a child under `@endo/init`, as the
 * daemon runs them: each message must still name the setting and the value
 * the reader needs (quoted), and never the secret it was given.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'sk-do-not-show-1234';

// Each case calls one built module with a bad setting or an impossible value; the child prints what each threw.
const CHILD = `
import '@endo/init';
const load = path => import(new URL('./dist/' + path, 'file://${repoRoot}/'));
const setupEnv = await load('setup/read-setup-env.js');
const { readEndoLlmEnv } = await load('setup/endo-llm-env.js');
const { assertModuleExists } = await load('setup/module-specifier.js');
const { readSandboxSettings } = await load('tools/lib/sandbox/sandbox-settings.js');
const { toolRootFromEnv } = await load('tools/lib/confine.js');
const { readMcpSettings } = await load('tools/lib/mcp/mcp-settings.js');
const { buildProvider } = await load('providers/create-provider.js');
const { toOpenAIMessages } = await load('providers/convert-openai.js');
const { toAnthropicRequest } = await load('providers/convert-anthropic.js');
const { toOllamaMessages } = await load('providers/convert-ollama.js');
const SECRET = ${JSON.stringify(SECRET)};
const stray = [{ role: 'developer', content: 'private words' }];
const cases = {
  name: () => setupEnv.guestNamesFor('Bad Name!', 'LAL_NAME'),
  persona: () => setupEnv.readPersona({ LAL_PERSONA: 'bob' }, 'lal'),
  faeCwd: () => setupEnv.readFaeCwd({ FAE_CWD: 'no-such-folder' }, '/no-such-root'),
  tokenTwice: () => setupEnv.readTokenFile({ LAL_AUTH_TOKEN: SECRET, LAL_AUTH_TOKEN_FILE: 'token' }, '/'),
  tokenFile: () => setupEnv.readTokenFile({ LAL_AUTH_TOKEN_FILE: 'no-such-file' }, '/no-such-root'),
  upstreamToken: () => readEndoLlmEnv({ ENDO_LLM_AUTH_TOKEN: SECRET, LAL_AUTH_TOKEN_FILE: '/token' }),
  moduleUrl: () => assertModuleExists('./agent.js'),
  moduleFile: () => assertModuleExists('file:///no-such-root/agent.js'),
  sandboxFlag: () => readSandboxSettings({ FAE_SANDBOX_ALLOW_NETWORK: 'sometimes' }, 'run-command-tool'),
  sandboxCount: () => readSandboxSettings({ FAE_SANDBOX_MEMORY_MB: 'lots' }, 'run-command-tool'),
  toolRoot: () => toolRootFromEnv({ FAE_CWD: 'relative/root' }, 'readFile'),
  mcpCwd: () => readMcpSettings({ MCP_COMMAND: 'node' }),
  mcpArgs: () => readMcpSettings({ MCP_COMMAND: 'node', MCP_CWD: '/srv', MCP_ARGS: '["-v", 2]' }),
  mcpTimeout: () => readMcpSettings({ MCP_COMMAND: 'node', MCP_TIMEOUT_MS: '0' }),
  mcpToken: () => readMcpSettings({ MCP_URL: 'http://127.0.0.1:9/mcp', MCP_AUTH_TOKEN: SECRET }),
  mcpUrlUser: () => readMcpSettings({ MCP_URL: 'ftp://me:' + SECRET + '@127.0.0.1/mcp' }),
  providerKind: () => buildProvider({ kind: 'gemini' }),
  openaiRole: () => toOpenAIMessages(stray),
  anthropicRole: () => toAnthropicRequest(stray),
  ollamaRole: () => toOllamaMessages(stray),
};
const thrown = {};
for (const [label, run] of Object.entries(cases)) {
  try {
    run();
    thrown[label] = null;
  } catch (error) {
    thrown[label] = error.message;
  }
}
process.stdout.write(JSON.stringify(thrown));
`;

let thrown: Record<string, string | null>;

beforeAll(() => {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(child.status, child.stderr).toBe(0);
  thrown = JSON.parse(child.stdout) as Record<string, string | null>;
});

describe("configuration errors under the daemon's lockdown", () => {
  it('name the setting and quote the value it had', () => {
    expect(thrown.name).toBe(
      'LAL_NAME must be a pet name: lower case letters, digits and "-", starting with a letter or digit, at most 113 characters; got "Bad Name!"',
    );
    expect(thrown.persona).toBe('LAL_PERSONA must be "lal" or "fae", got "bob"');
    expect(thrown.faeCwd).toBe('FAE_CWD does not exist: "/no-such-root/no-such-folder"');
    expect(thrown.tokenFile).toBe(
      'LAL_AUTH_TOKEN_FILE must name a readable file: "/no-such-root/no-such-file"',
    );
    expect(thrown.moduleUrl).toBe(
      'A caplet module must be named by a file:// URL, got "./agent.js"',
    );
    expect(thrown.moduleFile).toBe(
      'The caplet module "/no-such-root/agent.js" does not exist; build the package first (npm run build)',
    );
    expect(thrown.sandboxFlag).toBe(
      'run-command-tool: FAE_SANDBOX_ALLOW_NETWORK must be 1 or 0, got "sometimes"',
    );
    expect(thrown.sandboxCount).toBe(
      'run-command-tool: FAE_SANDBOX_MEMORY_MB must be a whole number of at least 1, got "lots"',
    );
    expect(thrown.toolRoot).toBe('readFile: FAE_CWD must be an absolute path, got "relative/root"');
    expect(thrown.mcpCwd).toBe(
      'mcp: MCP_CWD must be the absolute path of the folder the server may write in, got ""',
    );
    expect(thrown.mcpArgs).toBe('mcp: MCP_ARGS must be a JSON array of strings, got ["-v",2]');
    expect(thrown.mcpTimeout).toBe(
      'mcp: MCP_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000, got "0"',
    );
  });

  it('name a secret setting without its value', () => {
    expect(thrown.tokenTwice).toMatch(/^set LAL_AUTH_TOKEN or LAL_AUTH_TOKEN_FILE, not both/);
    expect(thrown.upstreamToken).toMatch(
      /^set ENDO_LLM_AUTH_TOKEN or LAL_AUTH_TOKEN_FILE, not both/,
    );
    expect(thrown.mcpToken).toMatch(/^mcp: MCP_AUTH_TOKEN is not read: .*MCP_AUTH_TOKEN_FILE/);
    // A URL with a password is refused for the password first, without the URL.
    expect(thrown.mcpUrlUser).toMatch(/^mcp: MCP_URL must not carry a user or password/);
    for (const message of Object.values(thrown)) expect(message ?? '').not.toContain(SECRET);
  });

  it('leave nothing the reader needs redacted', () => {
    for (const message of Object.values(thrown)) {
      expect(message).not.toBeNull();
      expect(message).not.toMatch(/\((a|an) [a-z]+\)/);
    }
  });
});

describe("invariant errors under the daemon's lockdown", () => {
  it('name the impossible kind or role, quoted, and not the message it was in', () => {
    expect(thrown.providerKind).toBe('Unknown provider kind "gemini"');
    for (const label of ['openaiRole', 'anthropicRole', 'ollamaRole']) {
      expect(thrown[label]).toBe('Unknown message role "developer"');
    }
  });
});
