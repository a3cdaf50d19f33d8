/**
 * `npm run model-double`: the scripted model double (demo-model.ts) on
 * loopback, for trying the agent with no model — in the simulator or a real
 * daemon (docs/daemon-guide.md). It serves the three wire protocols, each on
 * a port of its own: OpenAI-compatible on the chosen port, Anthropic on the
 * next, Ollama on the one after (or one of them with --protocol). On a
 * terminal, what it prints is wrapped at words (../chat/print-lines.ts).
 */
// The doubles harden what they export, as everything here does.
import '@endo/init';
import { startDemoServers, describeServers } from './demo-servers.js';
import { parseDoubleArgs } from './double-args.js';
import { DOUBLE_USAGE } from './usage.js';
import { describeError } from '../../providers/describe-error.js';
import { printLines, printUsage } from '../chat/print-lines.js';
import { blockedListenProblem, fetchBlocksPort } from '../../providers/bad-port.js';
import type { ModelProtocol } from './types.js';

/** The first of the ports the servers would take that fetch blocks, said as a sentence. */
const blockedPort = async (
  port: number,
  protocols: readonly ModelProtocol[],
): Promise<string | undefined> => {
  // Port 0 takes free ports, which the system picks above every port fetch blocks.
  if (port === 0) return undefined;
  for (const [index, protocol] of protocols.entries()) {
    if (!(await fetchBlocksPort(port + index))) continue;
    const which = index === 0 ? protocol : `${protocol}, --port ${port} + ${index}`;
    return blockedListenProblem(port + index, `for ${which}`);
  }
  return undefined;
};

const main = async () => {
  const parsed = parseDoubleArgs(process.argv.slice(2), process.env);
  if (!parsed.ok) {
    printLines(process.stderr, parsed.error);
    process.exit(2);
  }
  if (parsed.args.help) {
    printUsage(process.stdout, DOUBLE_USAGE);
    return;
  }
  const { port, protocols } = parsed.args;
  // Refused now, not by npm start later: it could never reach a double on such a port.
  const blocked = await blockedPort(port, protocols);
  if (blocked !== undefined) {
    printLines(process.stderr, blocked);
    process.exit(2);
  }
  const servers = await startDemoServers(port, protocols, line => printLines(process.stdout, line));
  for (const part of describeServers(servers))
    if (part.command === true) process.stdout.write(`${part.text}\n`);
    else printLines(process.stdout, part.text);
  const stop = () => {
    void Promise.all(servers.map(server => server.close())).then(() => process.exit(0));
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
};

main().catch((error: unknown) => {
  printLines(process.stderr, `npm run model-double failed: ${describeError(error)}`);
  process.exit(1);
});
