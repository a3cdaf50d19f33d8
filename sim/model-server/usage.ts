/**
 * `npm run model-double -- --help`: the usage, in a module of its own that
 * imports nothing, so scripts/start.mjs can print it on a fresh clone without
 * building first (docs/configuration.md: "never for --help").
 */
/** The daemon guide's address (docs/daemon-guide.md). */
export const DEFAULT_PORT = 18181;
harden(DEFAULT_PORT);

export const DOUBLE_USAGE = [
  'Usage: npm run model-double -- [--port <n>]',
  '                               [--protocol openai|anthropic|ollama] [--help]',
  '',
  'Serves a scripted model double on 127.0.0.1 for trying the agent without a',
  'model.',
  `  --port <n>       the first port (default ${DEFAULT_PORT}): OpenAI-compatible on n,`,
  '                   Anthropic on n+1, Ollama on n+2; 0 takes free ports',
  '  --protocol <p>   serve only this protocol, on the port given',
  '  --help           this text',
].join('\n');
harden(DOUBLE_USAGE);
