/**
 * Does what a typed line asks: mails a message to the agent, or runs a
 * slash command as the HOST. Failures are shown, never thrown.
 */
import { makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import { renderForModel } from '../../src/encoding/render-for-model.js';
import { attachTool } from './attach-tool.js';
import { attachMcp } from './attach-mcp.js';
import { detachTool } from './detach-tool.js';
import { COMMAND_HELP, type Command, type Parsed } from './commands.js';
import type { HostInbox } from './host-inbox.js';
import { runChannelCommand } from './channel-commands.js';
import type { ChannelEcho } from './channel-echo.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';
import type { Session } from './session.js';
import { describeError } from '../../providers/describe-error.js';
import { describeKept } from './describe-kept.js';
import { answerAtPrompt, approveRequest } from './answer-approval.js';
import { makeSenderNames } from './sender-name.js';
import type { Approvals } from './approvals.js';
import type { KeptTools } from './kept-tools.js';

/** The agent's controls, as the host holds them (agent.ts). */
interface AgentControls {
  help(methodName?: string): string;
  forget(): void;
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
  quit: () => void;
}

/** `/detach`: the HOST takes a tool it attached out of the agent's tools/ (./detach-tool.ts). */
const detachFrom = (session: Session, words: string): Promise<string> =>
  detachTool({
    host: session.mailHost.host,
    guest: session.mailHost.guest(session.guestName).powers,
    guestName: session.guestName,
    words,
  });

/** One wording for a number that names nothing the command can act on, whatever the command. */
const notActionable = (number: bigint, what: string): Error =>
  Error(`#${number} is not ${what} in your inbox; /inbox lists your messages`);

/** The proposal a command is about: the one named, or the latest pending one. */
const proposalNumber = (given: bigint | undefined, inbox: HostInbox): bigint => {
  if (given !== undefined) {
    if (inbox.pendingKind(given) === undefined)
      throw notActionable(given, 'an eval-proposal or approval request waiting for an answer');
    return given;
  }
  const pending = inbox.pendingProposals();
  const latest = pending[pending.length - 1];
  if (latest === undefined)
    throw Error('No eval-proposal or approval request is waiting for an answer');
  return latest;
};

/**
 * An answered proposal leaves HOST's inbox (the daemon cannot reload one that stays), and so
 * does the message that showed the code of an answered request to run code.
 */
const dismissAnswered = async (
  { session, inbox }: CommandContext,
  number: bigint,
): Promise<void> => {
  const shownCode = inbox.codeMessage(number);
  inbox.forget(number);
  for (const each of shownCode === undefined ? [number] : [number, shownCode])
    await Promise.resolve(E(session.mailHost.host).dismiss(each)).catch(() => {});
};

/**
 * /counter on the newest daemon, which has no counter-proposals: the request to run code is
 * refused with the code the HOST would run instead as its reason (the agent may propose it).
 */
const COUNTER_REASON = 'Counter-proposal: the host would run this code instead:';

/** Why a proposal or approval request dismissed unanswered was refused, as its agent hears it. */
const DISMISSED = 'The host dismissed it without an answer';

/**
 * A proposal or approval request dismissed unanswered is refused first, so
 * the agent hears that it will not run (and tells whoever asked), as it
 * would hear a rejection; a dismissal alone would leave it waiting.
 */
const refuseDismissed = async ({ session, inbox }: CommandContext, number: bigint) => {
  const kind = inbox.pendingKind(number);
  const shownCode = inbox.codeMessage(number);
  inbox.forget(number);
  if (kind === 'approval' || kind === 'code')
    await E(session.mailHost.host).reject(number, DISMISSED);
  else if (kind === 'proposal') await session.mailHost.rejectProposal(number, DISMISSED);
  if (shownCode !== undefined)
    await Promise.resolve(E(session.mailHost.host).dismiss(shownCode)).catch(() => {});
};

/** `/dismiss n|all`: what waits for an answer is refused first (its agent told), then dismissed. */
const dismiss = async (number: bigint | 'all', context: CommandContext): Promise<void> => {
  const { session, screen, inbox } = context;
  const { host } = session.mailHost;
  const refused =
    number === 'all'
      ? inbox.pendingProposals()
      : inbox.pendingKind(number) === undefined
        ? []
        : [number];
  if (number !== 'all') {
    const messages = await E(host).listMessages();
    if (!messages.some(message => message.number === number))
      throw notActionable(number, 'a message');
  }
  for (const each of refused) await refuseDismissed(context, each);
  if (number === 'all') await E(host).dismissAll();
  else {
    await E(host).dismiss(number);
    inbox.forget(number);
  }
  screen.print(
    'note',
    number === 'all' ? 'dismissed every message' : `dismissed #${number}`,
    // Said only when a proposal or request was among them: the agent is told it was refused.
    ...(refused.length === 0
      ? []
      : [`(${refused.map(each => `#${each}`).join(', ')} refused: ${session.guestName} is told)`]),
  );
};

const showInbox = async ({ session, screen }: CommandContext): Promise<void> => {
  const { host } = session.mailHost;
  const messages = await E(host).listMessages();
  if (messages.length === 0) {
    screen.print('note', 'Your inbox is empty.');
    return;
  }
  const nameOf = makeSenderNames(host, session.mailHost.hostId);
  for (const message of messages) {
    const from = await nameOf(message.from);
    const what =
      message.type === 'package'
        ? message.strings
            .map((part, index) =>
              index < message.names.length ? `${part}@${message.names[index]}` : part,
            )
            .join('')
        : message.type === 'request'
          ? `request: ${message.description}`
          : message.type === 'eval-proposal-reviewer'
            ? `asks to run code: ${message.source}`
            : `${message.type}: ${'source' in message ? message.source : 'description' in message ? message.description : ''}`;
    screen.print('note', `#${message.number} ${from}:`, what.replace(/\s+/g, ' ').slice(0, 100));
  }
};

/** The controller's hand on the schedules or on the helpers, called as the HOST would. */
const controllerSays = (
  caplet: unknown,
  command: { kind: 'schedules' | 'helpers'; action: string; id: string | undefined },
): Promise<string> => {
  const agent = caplet as {
    schedules(action?: string, id?: string): Promise<string>;
    helpers(action?: string, id?: string): Promise<string>;
  };
  return command.kind === 'schedules'
    ? E(agent).schedules(command.action, command.id)
    : E(agent).helpers(command.action.toLowerCase(), command.id);
};

const perform = async (command: Command, context: CommandContext): Promise<void> => {
  const { session, screen, inbox } = context;
  const { host } = session.mailHost;
  switch (command.kind) {
    case 'empty':
      return;
    case 'message':
      context.presenter.touch();
      // While a tool call waits for approval, y, n or a answers it (and when none waits, says so).
      if (await answerAtPrompt(command.text, { ...context, host, guestName: session.guestName }))
        return;
      await E(host).send(session.guestName, [command.text], [], []);
      return;
    case 'help':
      screen.print('note', COMMAND_HELP);
      return;
    case 'inbox':
      await showInbox(context);
      return;
    case 'status': {
      // help() without its first paragraph (the methods): the sections of the agent's state.
      const help = (await E(session.caplet.value as AgentControls).help()).split('\n\n');
      const said = help.slice(1).join('\n\n');
      screen.print(
        'note',
        `${said === '' ? 'Nothing to report yet.' : said}\n${context.approvals.describe()}`,
      );
      return;
    }
    case 'memory': {
      const lines = await describeKept(session.mailHost.guest(session.guestName).powers);
      screen.print(
        'note',
        [`What ${session.guestName} keeps:`, ...lines.map(line => `- ${line}`)].join('\n'),
      );
      return;
    }
    case 'forget':
      await E(session.caplet.value as AgentControls).forget();
      screen.print('note', `${session.guestName} has forgotten the conversation.`);
      return;
    case 'attach': {
      const { attached, said } = await (command.tool.toLowerCase() === 'mcp'
        ? attachMcp({
            host,
            special: session.mailHost.special,
            guestName: session.guestName,
            guest: session.mailHost.guest(session.guestName).powers,
            rest: command.folder ?? '',
            cwd: context.cwd,
            stateFolder: context.stateFolder,
          })
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
    case 'grant': {
      const number = proposalNumber(command.number, inbox);
      context.presenter.touch();
      const kind = inbox.pendingKind(number);
      if (kind === 'approval' || kind === 'code') {
        const shownCode = inbox.codeMessage(number);
        inbox.forget(number);
        await approveRequest(host, number);
        if (shownCode !== undefined)
          await Promise.resolve(E(host).dismiss(shownCode)).catch(() => {});
        screen.print(
          'note',
          kind === 'code'
            ? `granted #${number}: ${session.guestName} runs the code now`
            : `approved #${number}`,
        );
        return;
      }
      const result = await E(host).grantEvaluate(number);
      screen.print('note', `granted #${number} →`, await renderForModel(result));
      await dismissAnswered(context, number);
      return;
    }
    case 'reject': {
      const number = proposalNumber(command.number, inbox);
      context.presenter.touch();
      const kind = inbox.pendingKind(number);
      if (kind === 'approval')
        await E(host).reject(number, command.reason ?? 'Refused by the host');
      else if (kind === 'code')
        await E(host).reject(number, command.reason ?? 'Rejected by the host');
      else await session.mailHost.rejectProposal(number, command.reason ?? 'Rejected by the host');
      screen.print(
        'note',
        `rejected #${number}${command.reason === undefined ? '' : `: ${command.reason}`}`,
      );
      await dismissAnswered(context, number);
      return;
    }
    case 'counter': {
      const kind = inbox.pendingKind(command.number);
      if (kind !== 'proposal' && kind !== 'code')
        throw notActionable(
          command.number,
          'an eval-proposal or request to run code waiting for an answer',
        );
      context.presenter.touch();
      if (kind === 'code') {
        await E(host).reject(command.number, `${COUNTER_REASON}\n${command.source}`);
        screen.print(
          'note',
          `sent a counter-proposal for #${command.number} (this daemon has none: the request is refused with your code as the reason, and ${session.guestName} may propose it)`,
        );
      } else {
        await session.mailHost.counterPropose(command.number, { source: command.source });
        screen.print('note', `sent a counter-proposal for #${command.number}`);
      }
      await dismissAnswered(context, command.number);
      return;
    }
    case 'dismiss':
      await dismiss(command.number, context);
      return;
    case 'schedules':
    case 'helpers':
      screen.print('note', await controllerSays(session.caplet.value, command));
      return;
    case 'channel':
      screen.print(
        'note',
        await runChannelCommand(command, session.mailHost, session.guestName, context.channelEcho),
      );
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
