import { TOOLBOX_NAME } from '../../src/toolbox/toolbox.js';
import { parseChannelCommand, type ChannelCommand } from './channel-commands.js';
import { AGENT_ID, type Reference } from './agent-ids.js';
import { answersDo } from './answer-approval.js';

/**
 * What a typed line means: a message for the agent, or one of the slash
 * commands. Parsing is separate from doing, so it can be tested alone.
 */

export type Command =
  | { kind: 'message'; text: string }
  | { kind: 'help' }
  | { kind: 'inbox' }
  | { kind: 'attach'; tool: string; folder: string | undefined }
  | { kind: 'detach'; words: string }
  | { kind: 'grant'; number: Reference | undefined }
  | { kind: 'reject'; number: Reference | undefined; reason: string | undefined }
  | { kind: 'counter'; number: Reference; source: string }
  | { kind: 'dismiss'; number: Reference | 'all' }
  | { kind: 'schedules'; action: string; id: string | undefined }
  | { kind: 'helpers'; action: string; id: string | undefined }
  | { kind: 'status' }
  | { kind: 'tools'; behindToolbox: boolean }
  | ChannelCommand
  | { kind: 'memory' }
  | { kind: 'forget' }
  | { kind: 'quit' }
  /** `exit` or `quit` typed alone (a shell's habit): answered here in one line, not mailed. */
  | { kind: 'exit-word'; word: string }
  | { kind: 'empty' };

export type Parsed = Command | { kind: 'error'; error: string };

/**
 * /help's entries: what is typed, then what it does, as one paragraph (and an example to type),
 * wrapped where it is shown (./wrap-words.ts).
 */
const COMMANDS: readonly { command: string; does: string; example?: string }[] = [
  { command: '/help', does: 'this text' },
  { command: '/inbox', does: "your (HOST's) undismissed messages" },
  {
    command: '/status',
    does: "the agent's state: model, tools, usage and budgets, holds, what it waits for",
  },
  {
    command: '/tools [toolbox]',
    does: 'every tool the agent can reach, by name; many behind its toolbox are counted, and /tools toolbox names them',
  },
  { command: '/memory', does: 'what the agent keeps (kept across runs in its state folder)' },
  {
    command: '/forget',
    does: "clear the agent's conversation (as E(agent).forget() in the daemon)",
  },
  {
    command: '/attach <tool> [folder]',
    does: 'mail a tool to the agent: greet, math, timestamp; readFile, writeFile, editFile, listDir, runCommand need a folder',
  },
  {
    command: '/attach mcp <name> <command> [args…]',
    does: "an MCP server's tools, sandboxed (docs/mcp.md); one to try:",
    example:
      '/attach mcp everything node node_modules/@modelcontextprotocol/server-everything/dist/index.js',
  },
  {
    command: '/attach toolbox',
    does: '120 sample tools (repository, calendar, mail, files, tickets), found through the toolbox tool: use a tool to plan a meeting called "standup"',
  },
  {
    command: '/detach <tool> | mcp <name>',
    does: "take what you attached out of the agent's tools/ (not given back next run)",
  },
  {
    command: '/grant [n]',
    does: "run the code #n asks to run (an eval-proposal; with --newest a request), or approve the tool call asked in request #n (default: the latest pending one); n is the number shown (#4 or 4) or the agent's id for it (p1, a2: its words and /status name it by that; /inbox shows both)",
  },
  {
    command: '/reject [n] [reason]',
    does: 'refuse the code or the tool call #n asks for (default: the latest pending one)',
  },
  {
    command: 'y, n, a',
    does: `while a tool call waits for approval: ${answersDo('that tool')} (kept in the state folder; --yes lets runCommand and the file tools act unasked); a line of its own, then Enter (yes, no, always too); any other line is a message (when none waits the letters are not mailed; yes or no written out is a message)`,
  },
  {
    command: '/counter <n> <source>',
    does: 'answer #n with different code (with --newest: a refusal that gives it)',
  },
  { command: '/dismiss <n>|all', does: 'remove message #n (or all) from your inbox' },
  {
    command: '/schedules [pause|resume|revoke <id>]',
    does: "the agent's schedules, or change one",
  },
  { command: '/helpers [cancel <id>]', does: "the agent's helper agents at work, or stop one" },
  {
    command: '/channel new <name>',
    does: 'make a channel (with --newest); /channel show <name> reads it',
  },
  {
    command: '/channel post <name> [as <member>] <text>',
    does: 'post in it, as you or as another member; naming @lal (or @fae) invites the agent and tells it, as the chat does',
  },
  {
    command: '/quit',
    does: 'cancel the agent and leave (Ctrl-C stops a turn; twice within 2.5 s leaves)',
  },
  { command: '//text', does: 'mail a line that starts with "/" (//exit mails "exit")' },
];

/** Where each description starts; a command too long for it has its description on the next row. */
const DESCRIPTION_COLUMN = 29;
const commandIndent = '  ';
const exampleIndent = '    ';

/**
 * /help, a line per command: its description starts in one column, and a terminal that says its
 * width wraps each under it (./wrap-words.ts: the rows of a list item go on under its
 * description, an indented line's under its indent). Piped output wraps it at a fixed width
 * (./run-command.ts).
 */
export const COMMAND_HELP = [
  'Type a line to mail it to the agent. Commands:',
  ...COMMANDS.flatMap(({ command, does, example }) => {
    const label = `${commandIndent}${command}`;
    const described =
      label.length + 2 <= DESCRIPTION_COLUMN
        ? [`${label.padEnd(DESCRIPTION_COLUMN)}${does}`]
        : [label, `${' '.repeat(DESCRIPTION_COLUMN)}${does}`];
    return example === undefined ? described : [...described, `${exampleIndent}${example}`];
  }),
].join('\n');
harden(COMMAND_HELP);

/** What `exit` or `quit` typed alone is answered with: how to leave, and how to send it after all. */
export const exitWordHint = (word: string, persona: string): string =>
  `/quit or Ctrl-D leaves; //${word} sends "${word}" to ${persona}`;
harden(exitWordHint);

/** A message's number as shown (#4) or typed (4), or the agent's id for what waits (a2, p1). */
const REFERENCE = /^(?:#?\d+|[ap]\d+)$/i;

const referenceOf = (word: string): Reference =>
  AGENT_ID.test(word) ? word.toLowerCase() : BigInt(word.replace(/^#/, ''));

/** Splits off the first word of the text after a command. */
const firstWord = (rest: string): [string, string] => {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(rest);
  return match === null ? ['', ''] : [match[1]!, match[2]!.trim()];
};

export const parseCommand = (line: string): Parsed => {
  const trimmed = line.trim();
  if (trimmed === '') return { kind: 'empty' };
  // A shell's way to leave, typed alone, is not news for the agent (issue 45): "//exit" sends it,
  // the word itself (it has no "/" to escape); any other line after "//" keeps its one "/".
  const exitWord = /^(?:exit|quit)$/i;
  if (trimmed.startsWith('//'))
    return {
      kind: 'message',
      text: exitWord.test(trimmed.slice(2)) ? trimmed.slice(2) : trimmed.slice(1),
    };
  if (exitWord.test(trimmed)) return { kind: 'exit-word', word: trimmed };
  if (!trimmed.startsWith('/')) return { kind: 'message', text: line.trimEnd() };
  const [name, rest] = firstWord(trimmed.slice(1));
  switch (name.toLowerCase()) {
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'inbox':
      return { kind: 'inbox' };
    case 'status':
      return { kind: 'status' };
    case 'tools':
      if (rest !== '' && rest.toLowerCase() !== TOOLBOX_NAME)
        return { kind: 'error', error: `Usage: /tools [${TOOLBOX_NAME}]` };
      return { kind: 'tools', behindToolbox: rest !== '' };
    case 'memory':
      return { kind: 'memory' };
    case 'forget':
      return { kind: 'forget' };
    case 'quit':
    case 'exit':
      return { kind: 'quit' };
    case 'attach': {
      const [tool, folder] = firstWord(rest);
      if (tool === '') return { kind: 'error', error: 'Usage: /attach <tool> [folder]' };
      return { kind: 'attach', tool, folder: folder === '' ? undefined : folder };
    }
    case 'detach':
      if (rest === '')
        return { kind: 'error', error: 'Usage: /detach <tool> (or /detach mcp <name>)' };
      return { kind: 'detach', words: rest };
    case 'grant': {
      if (rest === '') return { kind: 'grant', number: undefined };
      if (!REFERENCE.test(rest))
        return {
          kind: 'error',
          error: "Usage: /grant [n] — n is the number shown (#4 or 4) or the agent's id (p1, a2)",
        };
      return { kind: 'grant', number: referenceOf(rest) };
    }
    case 'reject': {
      const [word, after] = firstWord(rest);
      if (REFERENCE.test(word))
        return {
          kind: 'reject',
          number: referenceOf(word),
          reason: after === '' ? undefined : after,
        };
      return { kind: 'reject', number: undefined, reason: rest === '' ? undefined : rest };
    }
    case 'counter': {
      const [word, source] = firstWord(rest);
      if (!REFERENCE.test(word) || source === '')
        return { kind: 'error', error: 'Usage: /counter <n> <source>' };
      return { kind: 'counter', number: referenceOf(word), source };
    }
    case 'dismiss': {
      if (rest === 'all') return { kind: 'dismiss', number: 'all' };
      if (!REFERENCE.test(rest)) return { kind: 'error', error: 'Usage: /dismiss <n>|all' };
      return { kind: 'dismiss', number: referenceOf(rest) };
    }
    case 'schedules': {
      const [action, id] = firstWord(rest);
      if (action !== '' && !['list', 'pause', 'resume', 'revoke'].includes(action.toLowerCase()))
        return { kind: 'error', error: 'Usage: /schedules [pause|resume|revoke <id>]' };
      // Said in the simulator's words: the daemon's (src/schedule/control-schedules.ts) name schedules().
      if (!['', 'list'].includes(action.toLowerCase()) && id === '')
        return {
          kind: 'error',
          error: `/schedules ${action.toLowerCase()} needs the id of a schedule (e.g. "w2"; list them with /schedules)`,
        };
      return { kind: 'schedules', action: action || 'list', id: id === '' ? undefined : id };
    }
    case 'helpers': {
      const [action, id] = firstWord(rest);
      if (!(action === '' || (action.toLowerCase() === 'cancel' && id !== '')))
        return { kind: 'error', error: 'Usage: /helpers [cancel <id>]' };
      return { kind: 'helpers', action: action || 'list', id: id === '' ? undefined : id };
    }
    case 'channel':
      return parseChannelCommand(rest);
    default:
      return {
        kind: 'error',
        error: `Unknown command /${name}; /help lists them (start a message with // to send a "/")`,
      };
  }
};
harden(parseCommand);
