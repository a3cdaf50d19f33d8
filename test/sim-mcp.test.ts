/**
 * MCP from `npm start` (docs/mcp.md, "From npm start"): `/attach mcp <name>
 * <command> [args…]` makes the bridge as setup-tools does and puts it in the
 * agent's tools/; the server (server-everything from npm, over stdio, in the
 * bubblewrap sandbox, offline) is listed at once, its tools are offered from
 * the next turn and called like any other, and the bridge comes back at the
 * next run of the same state folder.
 */
import { describe, expect, it } from 'vitest';
import { type NormalizedRequest, type ScriptedReply } from '../sim/model-server/index.js';
import { everythingServer } from './support/mcp-servers.js';
import { makeSimRunner } from './support/run-sim.js';
import { lastUserText, useModelServers } from './support/model-servers.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const startServer = useModelServers();

/** Has the server's echo at hand: offered itself, or (past the schema budget) behind the toolbox. */
const hasEcho = (request: NormalizedRequest) =>
  request.toolNames.includes('echo') || request.toolNames.includes('toolbox');

/** Calls the server's echo by its name when asked to echo, then says what it answered. */
const model = (request: NormalizedRequest): ScriptedReply => {
  const last = request.messages.at(-1);
  if (last?.role === 'tool') return { text: `It said: ${last.text}` };
  if (lastUserText(request).includes('echo') && hasEcho(request))
    return { toolCalls: [{ name: 'echo', arguments: { message: 'over stdio' } }] };
  return { text: `I have no echo; my tools: ${request.toolNames.join(', ')}.` };
};

describe('/attach mcp in npm start', () => {
  it("puts an MCP server's tools in the agent's hands, sandboxed, and keeps them for the next run", async () => {
    const server = await startServer({ protocol: 'openai', reply: model });
    const env = { LAL_HOST: server.url, XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--persona', 'fae'], env, input => {
      input.write(`/attach mcp everything node ${everythingServer}\n`);
      void input.waitFor(/its server offers \d+ tools: echo,/).then(() => {
        input.write('please echo something\n');
        input.end();
      });
    });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^put mcp-everything in fae's tools\/ \(its server offers \d+ tools: echo, .*\); fae offers them from its next turn$/m,
    );
    expect(first.stdout).toMatch(/^ {2}→ echo message="over stdio" ✓$/m);
    expect(first.stdout).toMatch(/^#\d+ fae › It said: .*Echo: over stdio/m);
    // The bridge's own log lines go to the log file, not between the chat's lines.
    expect(first.stdout).not.toContain('[mcp-everything]');

    const second = await runSim(['--persona', 'fae'], env, input => {
      input.write('please echo something\n');
      input.end();
    });
    expect(second.stderr).toBe('');
    expect(second.stdout).toMatch(
      /^Given back to the agent: .*\(mcp-everything: its server offers \d+ tools: echo, .*\)\.$/m,
    );
    expect(second.stdout).toMatch(/^#\d+ fae › It said: .*Echo: over stdio/m);
  });

  it('refuses a server that cannot list its tools: nothing put in tools/, nothing given back next run', async () => {
    const server = await startServer({ protocol: 'openai', reply: model });
    const env = { LAL_HOST: server.url, XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--persona', 'fae'], env, input => {
      input.write('/attach mcp bad nosuchcmd-for-this-test\n/status\n');
      input.end();
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^Did not attach mcp-bad: its server could not list its tools \(.*nosuchcmd-for-this-test.*\); nothing was put in fae's tools\/\. A local server runs sandboxed, with no network/m,
    );
    expect(first.stdout).not.toMatch(/put mcp-bad in/);
    const second = await runSim(['--persona', 'fae'], env, input => {
      input.write('/quit\n');
      input.end();
    });
    expect(second.stdout).not.toContain('mcp-bad');
  });

  it('says how to use it when the command is missing', async () => {
    const server = await startServer({ protocol: 'openai', reply: model });
    const run = await runSim(['--persona', 'fae'], { LAL_HOST: server.url }, input => {
      input.write('/attach mcp everything\n');
      input.end();
    });
    expect(run.stdout).toMatch(/^Usage: \/attach mcp <name> <command> \[args…\]/m);
  });

  it('names MCP among what can be attached when a name is unknown', async () => {
    const server = await startServer({ protocol: 'openai', reply: model });
    const run = await runSim(['--persona', 'fae'], { LAL_HOST: server.url }, input => {
      input.write('/attach nosuch\n');
      input.end();
    });
    expect(run.stdout).toMatch(
      /^No tool named "nosuch"; the tools are: .*toolbox \(120 sample tools\), mcp <name> <command> \[args…\] \(an MCP server, docs\/mcp\.md\)$/m,
    );
  });
});
