/**
 * The scripted model double for people (demo-model.ts) started on loopback,
 * one server a protocol on consecutive ports, each chat request said in one
 * line; and the lines that tell a person how to point the agent at them.
 */
import { demoModel, DEMO_MODEL } from './demo-model.js';
import { startModelServer } from './start-model-server.js';
import type { ModelProtocol, ModelServer, ScriptedReply } from './types.js';

/** The order of the ports: the OpenAI-compatible one first (the daemon guide's 18181). */
export const DEMO_PROTOCOLS: readonly ModelProtocol[] = ['openai', 'anthropic', 'ollama'];
harden(DEMO_PROTOCOLS);

/** A move in a few words: what the double answered. */
const describeMove = (move: ScriptedReply): string => {
  if ('toolCalls' in move && move.toolCalls !== undefined && move.toolCalls.length > 0)
    return `calls ${move.toolCalls.map(call => call.name).join(', ')}`;
  if ('text' in move && move.text !== undefined)
    return `answers ${JSON.stringify(move.text.length > 60 ? `${move.text.slice(0, 60)}…` : move.text)}`;
  return 'answers';
};

/** Starts one server for each protocol, on `port`, `port + 1`, … (0: any free ports). */
export const startDemoServers = async (
  port: number,
  protocols: readonly ModelProtocol[],
  say: (line: string) => void = () => {},
): Promise<ModelServer[]> => {
  const servers: ModelServer[] = [];
  try {
    for (const [index, protocol] of protocols.entries()) {
      const at = port === 0 ? 0 : port + index;
      servers.push(
        await startModelServer({
          protocol,
          port: at,
          models: [DEMO_MODEL],
          reply: request => {
            const move = demoModel(request);
            say(`${protocol} request ${request.index + 1}: ${describeMove(move)}`);
            return move;
          },
        }).catch((error: unknown) => {
          const code = (error as { code?: unknown }).code;
          throw Error(
            code === 'EADDRINUSE'
              ? `port ${at} is in use (for ${protocol}); choose others with --port <n> (it takes n to n+${protocols.length - 1})`
              : `could not listen on port ${at} for ${protocol}`,
            { cause: error },
          );
        }),
      );
    }
  } catch (error) {
    await Promise.all(servers.map(server => server.close()));
    throw error;
  }
  return servers;
};
harden(startDemoServers);

const NAMES: Record<ModelProtocol, string> = {
  openai: 'OpenAI-compatible',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
};

/** The settings that point the agent at a server (the Anthropic client needs some key, any will do). */
const settingsFor = (server: ModelServer): string =>
  [
    `LAL_HOST=${server.url}`,
    ...(server.protocol === 'anthropic' ? ['LAL_PROVIDER=anthropic', 'LAL_AUTH_TOKEN=any'] : []),
    `LAL_MODEL=${DEMO_MODEL}`,
  ].join(' ');

/**
 * The banner, in parts: words, which a terminal shows wrapped at words (../chat/print-lines.ts),
 * and the commands to copy, each whole on a line of its own: a break of ours would end the
 * command where it is pasted, while the terminal's own wrap of a long row joins again on copy.
 */
export const describeServers = (
  servers: readonly ModelServer[],
): readonly { text: string; command?: true }[] => [
  {
    text: [
      `The scripted model double (no real model; model "${DEMO_MODEL}") is listening.`,
      'Ctrl-C stops it. Point the agent at it, in another terminal:',
    ].join('\n'),
  },
  ...servers.flatMap(server => [
    { text: `  ${NAMES[server.protocol]}:` },
    { text: `    ${settingsFor(server)} npm start`, command: true as const },
  ]),
  {
    text: [
      'It answers "ping", works out arithmetic ("what is 6 * 7?") with code, runs a',
      'command in backticks with runCommand, adopts a tool you /attach, sets reminders',
      '("remind me in 30 seconds to stretch", "every 2 minutes check the inbox"), hands',
      'a task to a helper ("ask a helper to …"), finds a tool in a big toolbox ("use a',
      'tool to plan a meeting called "standup"") and streams a long story when asked.',
    ].join('\n'),
  },
];
harden(describeServers);
