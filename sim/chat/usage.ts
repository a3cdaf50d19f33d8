/**
 * `npm start -- --help`: the usage, in a module of its own that imports
 * nothing, so scripts/start.mjs can print it on a fresh clone without building
 * first (docs/configuration.md: "never for --help").
 */
export const USAGE = [
  'Usage: npm start -- [--persona lal|fae] [--demo] [--newest] [--fresh] [--yes]',
  '                    [--verbose] [--help]',
  '',
  'Chat with Lal or Fae as their HOST, in a local double of the Endo daemon.',
  '  --persona lal|fae  which agent to start (default LAL_PERSONA from the',
  '                     environment or .env, else lal)',
  '  --demo             think with a scripted model double started here (no model',
  '                     needed; `npm run model-double` serves the same one for a',
  '                     daemon)',
  '  --newest           play the newest daemon: channels (/channel), live progress',
  '  --fresh            start clean: forget what earlier runs kept in the state',
  '                     folder',
  '  --yes              let runCommand, writeFile and editFile act without asking',
  '                     you first (by default each asks: y, n, or a for always;',
  '                     LAL_TOOLS_CONFIRM sets the list)',
  "  --verbose          also show the agent's log lines (always written to the log",
  '                     file)',
  '  --help             this text',
  '',
  'The model comes from LAL_HOST, LAL_MODEL, LAL_AUTH_TOKEN, LAL_PROVIDER; default',
  'a local Ollama at http://localhost:11434. They are also read from the .env file',
  "of the folder npm start runs in: the package's own, beside package.json.",
  'The conversation is kept across runs in a state folder of its own, named when',
  'it starts ($XDG_STATE_HOME/lal-fae/<persona> when it is an absolute path, else',
  '~/.local/state/lal-fae/<persona>; -demo and -newest added for --demo and',
  "--newest, each daemon's apart), with the last runs' logs.",
  'When stdin is not a terminal, each line is one message or command; the program',
  'exits once the input has ended and the agent is idle, with 1 when a turn failed',
  'or stopped without answering (a bound, the hourly budget), or a message was not',
  "sent (one longer than the daemon's limit on a message).",
].join('\n');
harden(USAGE);
