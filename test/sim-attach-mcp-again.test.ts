/**
 * Two findings of the fifteenth newcomer trial at `/attach mcp` (issue 45, docs/mcp.md "From npm
 * start"): a name already attached started a second server and replaced the first without a word
 * (and a failed second attach kept the first after saying it "did not attach"), where `/attach` of
 * any other tool the agent holds is refused; and a remote server's failure got the local
 * sandbox's hint (no network, npx -y) instead of naming the address that did not answer.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { everythingServer } from './support/mcp-servers.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

/** A loopback port nothing listens on: one just opened and closed again. */
const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>(listening => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  await new Promise(closed => server.close(closed));
  if (address === null || typeof address === 'string') throw Error('no port');
  return address.port;
};

describe('/attach mcp with a name already attached', () => {
  it('is refused, naming /detach mcp <name>, and starts no second server', async () => {
    const run = await runSim(['--demo', '--persona', 'fae'], {}, input => {
      input.write(`/attach mcp everything node ${everythingServer}\n`);
      void input.waitFor(/^put mcp-everything in fae's tools\//m).then(() => {
        input.write(`/attach mcp everything node ${everythingServer}\n`);
        input.end();
      });
    });
    expect(run.stdout).toContain(
      'mcp everything is already attached: fae holds it as tools/mcp-everything; /detach mcp everything first to attach it again',
    );
    expect(run.stdout.match(/starting mcp-everything…/g)).toHaveLength(1);
    expect(run.stdout.match(/^put mcp-everything in/gm)).toHaveLength(1);
  });
});

describe('/attach mcp of a URL that does not answer', () => {
  it('names the address, not the local sandbox', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const run = await runSim(['--demo', '--persona', 'fae'], {}, input => {
      input.write(`/attach mcp web ${url}\n`);
      input.end();
    });
    const shown = `${run.stdout}${run.stderr}`;
    expect(shown).toContain('Did not attach mcp-web: its server could not list its tools');
    expect(shown).toContain(
      `The server at ${url} did not answer: check that it runs and that the address, its path too, is the one it serves MCP at (docs/mcp.md).`,
    );
    expect(shown).not.toContain('sandboxed, with no network');
  });
});
