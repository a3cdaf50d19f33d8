/**
 * Does what a typed line asks: mails a message to the agent, or runs a
 * slash command as the HOST. Failures are shown, never thrown.
 */
import { makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import { attachTool } from './attach-tool.js';
import { attachMcp } from './attach-mcp.js';
import { detachTool } from './detach-tool.js';
import { COMMAND_HELP, exitWordHint, type Command, type Parsed } from './commands.js';
import { wrapEntry } from './wrap-words.js';
import type { HostInbox } from './host-inbox.js';
import { runChannelCommand } from './channel-commands.js';
import type { ChannelEcho } from './channel-echo.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';
import type { Session } from './session.js';
import { describeError } from '../../providers/describe-error.js';
import { describeKept, keptListing } from './describe-kept.js';
import { columnsOf } from './columns.js';
import { cut } from './describe-tool-call.js';
import { countedListing, deferredListing } from './tools-listing.js';
import { answerAtPrompt } from './answer-approval.js';
import { counter, dismiss, grant, reject } from './answer-waiting.js';
import { makeSenderNames } from './sender-name.js';
import { packageText } from './package-text.js';
import { readCodeForHost, readCodeRequest } from '../../src/asks/host-approved-evaluation.js';
import type { Approvals } from './approvals.js';
import type { KeptTools } from './kept-tools.js';
import { makeAgentIds, type Reference } from './agent-ids.js';
import type { StoppableCommand } from './stoppable-command.js';
import { messageTooLong } from './message-limit.js';

/** The agent's controls, as the host holds them (agent.ts). */
interface AgentControls {
  help(methodName?: string): string;
  forget(): void;
  tools(): string;
}

export interface CommandContext {
  session: Session;
  screen: Screen;
  inbox: HostInbox;
  presenter: Presenter;
  cwd: string;
  /** The simulator's state folder (an MCP server's own folder is made in it). */
  stateFolder: string;
  /** The tools the person answered "always" for (./approvals.ts). */
  approvals: Approvals;
  /** The tools attached, kept across runs once adopted (./kept-tools.ts). */
  keptTools: KeptTools;
  /** Shows what others post in the channels the person uses (./channel-echo.ts). */
  channelEcho?: ChannelEcho;
  /** What Ctrl-C can stop while it runs (./stoppable-command.ts): an /attach mcp. */
  stoppable: StoppableCommand;
  quit: () => void;
  /** A message refused before sending (over the daemon's limit): a piped run exits 1 for it. */
  notSent: () => void;
}

/**
 * An MCP server may take long to start (one that downloads and has no network: a minute): said at
 * once, on a terminal on the status line too, whose clock tells the time it takes, unless a turn
 * holds that line.
 */
const startingSaid = ({ screen, presenter }: Pick<CommandContext, 'screen' | 'presenter'>) => {
  let shown = false;
  return {
    say: (petName: string) => {
      const line = screen.tty ? `starting ${petName}… (Ctrl-C stops)` : `starting ${petName}…`;
      screen.print('note', line);
      if (!screen.tty || presenter.busy()) return;
      screen.status(line);
      shown = true;
    },
    over: () => {
      if (shown && !presenter.busy()) screen.status(undefined);
    },
  };
};

/** `/detach`: the HOST takes a tool it attached out of the agent's tools/ (./detach-tool.ts). */
const detachFrom = (session: Session, words: string): Promise<string> =>
  detachTool({
    host: session.mailHost.host,
    guest: session.mailHost.guest(session.guestName).powers,
    guestName: session.guestName,
    words,
  });

/** How much of each message /inbox shows: a cut one ends with "…". */
const INBOX_CHARS = 100;
/** /help piped, where no terminal says a width: rows of 79 columns at most, as on a terminal of 80. */
const PIPED_HELP_WIDTH = 79;

const showInbox = async (context: CommandContext): Promise<void> => {
  const { session, screen } = context;
  const { host } = session.mailHost;
  const messages = await E(host).listMessages();
  if (messages.length === 0) {
    screen.print('note', 'Your inbox is empty.');
    return;
  }
  const nameOf = makeSenderNames(host, session.mailHost.hostId);
  const ids = await agentIdsOf(context).waiting();
  for (const message of messages) {
    const from = await nameOf(message.from);
    const text = message.type === 'package' ? packageText(message.strings, message.names) : '';
    // On the newest daemon code comes as two messages (./code-requests.ts): each said for what it is.
    const code = readCodeForHost(text);
    const codeRequest =
      message.type === 'request' ? readCodeRequest(message.description) : undefined;
    const what =
      message.type === 'package'
        ? code === undefined
          ? text
          : `the code it asks to run: ${code}`
        : codeRequest !== undefined
          ? `asks to run code (endowments: ${codeRequest.endowments}; result: ${codeRequest.resultName})`
          : message.type === 'request'
            ? `request: ${message.description}`
            : message.type === 'eval-proposal-reviewer'
              ? `asks to run code: ${message.source}`
              : `${message.type}: ${'source' in message ? message.source : 'description' in message ? message.description : ''}`;
    const id = ids.get(message.number);
    const head = `#${message.number} ${from}${id === undefined ? '' : ` (${id})`}:`;
    // One row each: on a terminal, what fits beside the head (one column spare).
    const room = (screen.width?.() ?? Infinity) - columnsOf(head) - 2;
    screen.print('note', head, cut(what, Math.max(10, Math.min(INBOX_CHARS, room))));
  }
};

/** `/tools`, a long line of tools behind the toolbox counted; `/tools toolbox` names them (./tools-listing.ts). */
const showTools = async (behindToolbox: boolean, { session, screen }: CommandContext) => {
  const listing = await E(session.caplet.value as AgentControls).tools();
  screen.print(
    'note',
    behindToolbox ? deferredListing(listing, session.guestName) : countedListing(listing),
  );
};

/** The agent's ids for what waits for the person's answer, read as each command runs (./agent-ids.ts). */
const agentIdsOf = ({ session, inbox }: CommandContext) =>
  makeAgentIds({
    host: session.mailHost.host,
    guest: session.mailHost.guest(session.guestName).powers,
    inbox,
  });

/** The message number a command names: as typed, or by the agent's id for it (none: the latest). */
const numberOf = async (
  reference: Reference | undefined,
  context: CommandContext,
): Promise<bigint | undefined> =>
  reference === undefined ? undefined : agentIdsOf(context).numberOf(reference);

/** /status's line of what waits for the person's answer: each by its number and the agent's id. */
const waitingLine = async (context: CommandContext): Promise<string[]> => {
  const pending = context.inbox.pendingProposals();
  if (pending.length === 0) return [];
  const ids = await agentIdsOf(context).waiting();
  const each = pending.map(number => {
    const id = ids.get(number);
    return id === undefined ? `#${number}` : `#${number} (${id})`;
  });
  return [
    `Waiting for your answer: ${each.join(', ')}; /grant or /reject takes the number or the id`,
  ];
};

/**
 * The controller's hand on the schedules (between turns: again after a stop, `Session.betweenTurns`)
 * or on the helpers (at once), called as the HOST would.
 */
const controllerSays = (
  session: Session,
  command: { kind: 'schedules' | 'helpers'; action: string; id: string | undefined },
): Promise<string> => {
  type Hands = {
    schedules(action?: string, id?: string): Promise<string>;
    helpers(action?: string, id?: string): Promise<string>;
  };
  return command.kind === 'schedules'
    ? session.betweenTurns(agent => E(agent as Hands).schedules(command.action, command.id))
    : session
        .controls()
        .then(agent => E(agent as Hands).helpers(command.action.toLowerCase(), command.id));
};

/** A line that is no command: an answer to a waiting approval, or a message to the agent. */
const sendMessage = async (text: string, context: CommandContext): Promise<void> => {
  const { session, screen } = context;
  const { host } = session.mailHost;
  context.presenter.touch();
  // While a tool call waits for approval, y, n or a answers it (and when none waits, says so).
  if (await answerAtPrompt(text, { ...context, host, guestName: session.guestName })) return;
  // The daemon's guard would refuse it with an internal error (./message-limit.ts).
  const tooLong = messageTooLong(text, session.guestName);
  if (tooLong !== undefined) {
    screen.print('error', tooLong);
    context.notSent();
    return;
  }
  await E(host).send(session.guestName, [text], [], []);
};

const perform = async (command: Command, context: CommandContext): Promise<void> => {
  const { session, screen } = context;
  const { host } = session.mailHost;
  switch (command.kind) {
    case 'empty':
      return;
    case 'message':
      await sendMessage(command.text, context);
      return;
    case 'help':
      // A terminal wraps it to its width (./screen.ts); piped, it keeps to a width of its own.
      screen.print(
        'note',
        screen.tty ? COMMAND_HELP : wrapEntry(COMMAND_HELP, undefined, PIPED_HELP_WIDTH).head,
      );
      return;
    case 'inbox':
      await showInbox(context);
      return;
    case 'status': {
      // help() without its first paragraph (the methods): the sections of the agent's state.
      const help = (await E((await session.controls()) as AgentControls).help()).split('\n\n');
      const said = help.slice(1).join('\n\n');
      const waiting = await waitingLine(context);
      screen.print(
        'note',
        [
          said === '' ? 'Nothing to report yet.' : said,
          context.approvals.describe(),
          ...waiting,
        ].join('\n'),
      );
      return;
    }
    case 'tools':
      await showTools(command.behindToolbox, context);
      return;
    case 'memory': {
      const lines = await describeKept(session.mailHost.guest(session.guestName).powers);
      screen.print('note', keptListing(session.guestName, lines));
      return;
    }
    case 'forget':
      await session.betweenTurns(controls => E(controls as AgentControls).forget());
      screen.print('note', `${session.guestName} has forgotten the conversation.`);
      return;
    case 'attach': {
      const starting = startingSaid(context);
      const { attached, said } = await (command.tool.toLowerCase() === 'mcp'
        ? context.stoppable
            .run(signal =>
              attachMcp({
                starting: starting.say,
                host,
                special: session.mailHost.special,
                guestName: session.guestName,
                guest: session.mailHost.guest(session.guestName).powers,
                rest: command.folder ?? '',
                cwd: context.cwd,
                stateFolder: context.stateFolder,
                signal,
              }),
            )
            .finally(starting.over)
        : attachTool({
            host,
            special: session.mailHost.special,
            guestName: session.guestName,
            guest: session.mailHost.guest(session.guestName).powers,
            tool: command.tool,
            folder: command.folder,
            cwd: context.cwd,
          }));
      await context.keptTools.attached(host, attached);
      screen.print('note', said);
      return;
    }
    case 'detach':
      screen.print('note', await detachFrom(session, command.words));
      return;
    case 'grant':
      await grant(await numberOf(command.number, context), context);
      return;
    case 'reject':
      await reject(await numberOf(command.number, context), command.reason, context);
      return;
    case 'counter':
      await counter(await agentIdsOf(context).numberOf(command.number), command.source, context);
      return;
    case 'dismiss':
      await dismiss(
        command.number === 'all' ? 'all' : await agentIdsOf(context).numberOf(command.number),
        context,
      );
      return;
    case 'schedules':
    case 'helpers':
      screen.print('note', await controllerSays(session, command));
      return;
    case 'channel':
      screen.print(
        'note',
        await runChannelCommand(command, session.mailHost, session.guestName, context.channelEcho),
      );
      return;
    case 'exit-word':
      screen.print('note', exitWordHint(command.word, session.guestName));
      return;
    case 'quit':
      context.quit();
      return;
    default: {
      const unknownCommand: never = command;
      throw makeError(X`unhandled command ${q(unknownCommand)}`);
    }
  }
};

export const runCommand = async (command: Parsed, context: CommandContext): Promise<void> => {
  if (command.kind === 'error') {
    context.screen.print('error', command.error);
    return;
  }
  try {
    await perform(command, context);
  } catch (error) {
    context.screen.print('error', describeError(error));
  }
};
harden(runCommand);
