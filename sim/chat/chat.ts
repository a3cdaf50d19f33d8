/**
 * The chat of `npm start`, once ./start-up.ts has settled the flags, the
 * settings, the model server and the state folder (./main.ts loads this only
 * then, so a refused run loads none of it). The agent runs exactly as it does in
 * the daemon's worker.
 */
import { capletEnv } from './dotenv.js';
import { makePlainScreen, makeTtyScreen, type Screen } from './screen.js';
import { makePresenter } from './presenter.js';
import { watchQuietServer } from './quiet-server.js';
import { quietConsole } from './quiet-console.js';
import { divertStderr } from './worker-stderr.js';
import { openRunState } from './run-state.js';
import { droppedLine, makeInterrupt } from './interrupt.js';
import { makeTypedLines, type TypedKind, type TypedLines } from './typed-lines.js';
import { hostMessageOfTurn, waitingMailOf } from './waiting-mail.js';
import { startSession, type Session } from './session.js';
import {
  followHostInbox,
  unansweredApprovals,
  unansweredProposals,
  type HostInbox,
} from './host-inbox.js';
import { makeAgentIds } from './agent-ids.js';
import type { Interface } from 'node:readline';
import { makeChannelEcho } from './channel-echo.js';
import { parseCommand, type Parsed } from './commands.js';
import { runCommand, type CommandContext } from './run-command.js';
import { makeAfterCommand, type AfterCommand } from './after-command.js';
import { agentIdle, waitUntilIdle } from './wait-until-idle.js';
import { runPipedChat } from './piped-chat.js';
import type { startUp } from './start-up.js';
import { openReadline } from './read-lines.js';
import { approveRequest, isAnswerAtPrompt } from './answer-approval.js';
import { makeStoppableCommand } from './stoppable-command.js';
import type { Approvals } from './approvals.js';
import { holdUntilReady } from './held-until-ready.js';
import { joinPastedLines, type PastedLines } from './pasted-lines.js';
import type { EarlyKeys } from './early-keys.js';
import { LEAVING_SIGNALS, type LeaveBeforeChat } from './leave-before-chat.js';

const GREETING_WAIT_MS = 30_000;
const CANCEL_WAIT_MS = 1_500;

const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms).unref());

/** The first line: who the person is, and which model the agent thinks with, from where. */
const firstLine = (
  persona: string,
  config: { modelFromEnv: boolean; model: string; host: string; kind: string },
  double: { model: string } | undefined,
): string => {
  // The demo's address is a loopback port of the moment, of no use to the person: not shown, so a session reads the same each run.
  if (double !== undefined)
    return `lal-fae simulator: you are HOST; ${persona} thinks with ${double.model}, the only model of the scripted model double that --demo started in this process (${config.kind}).`;
  const model = config.modelFromEnv ? config.model : 'the first model the server lists';
  return `lal-fae simulator: you are HOST; ${persona} thinks with ${model} at ${config.host} (${config.kind}).`;
};

/** The messages read or typed and not sent when the person leaves are dropped, and said to be. */
const sayDropped = (screen: Screen, persona: string, unsent: readonly string[]): void => {
  const dropped = unsent.filter(line => parseCommand(line).kind === 'message');
  if (dropped.length > 0) screen.print('note', droppedLine(persona, dropped));
};

/** What still waits for the person's answer as they leave: each kind said in one line. */
const sayUnanswered = (screen: Screen, inbox: HostInbox, session: Session): void => {
  for (const unanswered of [unansweredProposals(inbox), unansweredApprovals(inbox)])
    if (unanswered !== undefined) screen.print('note', unanswered(session.guestName));
};

/** Ctrl-C's first job, as in a shell: the line typed and not entered is dropped (and a paste waiting for Enter). */
const discardTyped = (readline: Interface, pasted: PastedLines | undefined): boolean => {
  const dropped = pasted?.discard() === true;
  if (readline.line === '') return dropped;
  // To the line's end, then all of it before the cursor: the line is empty and redrawn so.
  readline.write(null, { ctrl: true, name: 'e' });
  readline.write(null, { ctrl: true, name: 'u' });
  return true;
};

/** The agent's own id for a waiting eval-proposal, as its store holds it (./agent-ids.ts). */
const proposalIdOf = async (
  session: Session,
  inbox: HostInbox,
  number: bigint,
): Promise<string | undefined> =>
  (
    await makeAgentIds({
      host: session.mailHost.host,
      guest: session.mailHost.guest(session.guestName).powers,
      inbox,
    }).waiting()
  ).get(number);

/**
 * On a terminal: each line typed runs in order, shown where it belongs (./typed-lines.ts); an
 * answer to a tool call's approval is a line too (./answer-approval.ts), never a key alone, so a
 * message that starts with y, n or a approves nothing and keeps its first letter.
 */
/** What a typed line is, for where it is shown: `y` while an approval waits is an answer, not a message. */
const kindOf = (command: Parsed, inbox: HostInbox): TypedKind => {
  if (command.kind !== 'message') return 'command';
  return isAnswerAtPrompt(command.text, inbox) ? 'answer' : 'message';
};

const followTerminal = (
  readline: Interface,
  keys: NodeJS.EventEmitter,
  context: CommandContext,
  typed: TypedLines,
  start: {
    persona: string;
    ready: Promise<unknown>;
    idle: () => Promise<void>;
    unsent: string[];
    /** A line typed while a command of the person's still runs waits for it, and says so. */
    afterCommand: AfterCommand;
  },
): PastedLines => {
  const { screen, presenter } = context;
  const { afterCommand } = start;
  // What a command shows goes after its echo, and never between a turn's answer and its summary.
  const shown: CommandContext = {
    ...context,
    screen: { ...screen, print: (...line) => presenter.pastTurnOver(() => screen.print(...line)) },
  };
  // Typed before the agent is ready: held, then done in order (./held-until-ready.ts).
  const held = holdUntilReady({
    ...start,
    screen,
    busy: () => presenter.busy(),
    run: async line => {
      await runCommand(parseCommand(line), shown);
      presenter.touch();
    },
  });
  // What is typed once it is ready goes after what was held.
  let chain = held.done;
  // A paste of several lines comes as one line, its lines joined (./pasted-lines.ts).
  return joinPastedLines({
    input: keys,
    output: process.stdout,
    readline,
    note: text => screen.print('note', text),
    onLine: line => {
      const command = parseCommand(line);
      // Enter: the prompt again on the new row at once, as a shell draws it, so keys typed before
      // anything prints sit after it (a command that prints nothing for a while: `/grant` on
      // --newest); readline draws it only when asked (issue 45, trial 14).
      readline.prompt();
      if (held.hold(line)) return;
      const kind = kindOf(command, context.inbox);
      chain = chain.then(
        afterCommand.queue(line, () => runCommand(command, shown), {
          kind,
          place: echo => typed.place(line, kind, echo),
        }),
      );
    },
  });
};

/** The HOST's inbox, followed on the screen: what comes, and what waits for an answer. */
const followInbox = (
  made: Session,
  shown: {
    screen: Screen;
    presenter: ReturnType<typeof makePresenter>;
    report: (problem: string) => void;
    /** The tools answered for (`unaskedBy`), and the numbering kept before a number is shown. */
    state: {
      approvals: Pick<Approvals, 'unaskedBy'>;
      keepNumbers: () => void;
    };
  },
): HostInbox => {
  const inbox = followHostInbox({
    host: made.mailHost.host,
    hostId: made.mailHost.hostId,
    before: made.hostMailBefore,
    ...{ screen: shown.screen, presenter: shown.presenter, report: shown.report },
    unaskedBy: tool => shown.state.approvals.unaskedBy(tool),
    approve: number => approveRequest(made.mailHost.host, number),
    proposalIdOf: number => proposalIdOf(made, inbox, number),
    numberShown: shown.state.keepNumbers,
  });
  return inbox;
};

/**
 * Stops the agent as the person leaves; one still being made (a Ctrl-C before its greeting) is
 * waited for a moment, to be stopped too. What it stopped, if any, for the state to be saved.
 */
const stopAgent = async (
  session: Session | undefined,
  starting: Promise<Session> | undefined,
): Promise<Session | undefined> => {
  const made =
    session ??
    (await Promise.race([
      starting?.catch(() => undefined),
      sleep(CANCEL_WAIT_MS).then(() => undefined),
    ]));
  // Cancelling through the caplet's context aborts a model call in flight.
  await Promise.race([made?.caplet.cancel('the host left').catch(() => {}), sleep(CANCEL_WAIT_MS)]);
  return made;
};

type Started = Awaited<ReturnType<typeof startUp>>;

export const runChat = async (
  started: Started,
  earlyKeys: EarlyKeys,
  early: Pick<LeaveBeforeChat, 'stop'>,
): Promise<void> => {
  const cwd = process.cwd();
  const { args, settings, envNote, preflight, double, stateFolder, releaseState } = started;
  const { persona, verbose, fresh, newest, yes } = args;

  const tty = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const screen: Screen = tty
    ? makeTtyScreen(process.stdout)
    : makePlainScreen(text => process.stdout.write(text));
  const restoreConsole = quietConsole();
  const presenter = makePresenter(screen, persona);
  const quietServer = watchQuietServer(screen, persona);
  const report = (problem: string) => screen.print('error', problem);
  let session: Session | undefined;
  const channelEcho = makeChannelEcho({ screen, presenter, agentName: persona, report });
  const state = openRunState({
    ...{ processEnv: process.env, settings, persona, folder: stateFolder, fresh },
    profile: newest ? 'newest' : 'f0a46042a',
    session: () =>
      session === undefined
        ? undefined
        : { mailHost: session.mailHost, powers: session.mailHost.guest(session.guestName).powers },
    report,
    note: line => screen.print('note', line),
  });

  for (const note of [firstLine(persona, preflight.config, double), envNote, state.intro])
    if (note !== undefined) screen.print('note', note);
  if (preflight.warning !== undefined) screen.print('error', preflight.warning);

  let leaving = false;
  /** The lines read (piped: ./piped-chat.ts) or typed before the agent was ready, not yet sent: dropped when the person leaves. */
  const unsent: string[] = [];
  const logLine = (line: string) => {
    state.log.write(line);
    // Once the person leaves, what the agent logs of its own end (its cancellation) is not news: the log keeps it.
    if (verbose && !leaving) screen.print('log', `  ${line}`);
  };
  const restoreStderr = divertStderr(logLine);
  const typed = makeTypedLines({ presenter, screen, persona });
  let inbox: HostInbox | undefined;
  /** The agent being made: a leave while it starts waits for it a moment, to stop it too. */
  let starting: Promise<Session> | undefined;
  const leave = async (code: number): Promise<never> => {
    if (!leaving) {
      leaving = true;
      screen.status(undefined);
      if (inbox !== undefined && session !== undefined) sayUnanswered(screen, inbox, session);
      sayDropped(screen, persona, unsent);
      inbox?.stop();
      channelEcho.stop();
      session = await stopAgent(session, starting);
      await state.save();
      releaseState();
      await double?.close();
      screen.close();
      // One line says it left, piped as on a terminal (in place of the prompt there, which is no longer drawn).
      screen.print('note', state.farewell);
      state.log.close();
      restoreConsole();
      restoreStderr();
    }
    process.exit(code);
  };
  // Leaving is the chat's from here, while the agent starts too (a Ctrl-C before its greeting).
  for (const signal of LEAVING_SIGNALS) process.on(signal, () => void leave(0));
  early.stop();
  // A reader that went away (`npm start | head`) ends the chat quietly.
  process.stdout.on('error', () => void leave(0));

  starting = startSession({
    persona,
    ...(newest ? { profile: 'newest' as const } : {}),
    env: capletEnv(settings),
    confirm: state.approvals.confirmFor(settings, yes),
    log: logLine,
    observe: event => {
      presenter.observe(event);
      if (event.kind === 'turn-start') typed.started(hostMessageOfTurn(session, event.title));
      quietServer.see(event);
      state.see(event);
      channelEcho.see(event);
    },
    ...{ restore: state.restore, daemon: state.daemon, sawEarlierMail: presenter.fromBefore },
  });
  const made = await starting.catch((error: unknown) => {
    // Left while it started: its failure is no news.
    if (leaving) return undefined;
    throw error;
  });
  // Left while it started: leaving has it now.
  if (made === undefined || leaving) return;
  session = made;
  const followed = followInbox(made, { screen, presenter, report, state });
  inbox = followed;

  const context: CommandContext = {
    ...{ session: made, screen, inbox: followed, presenter, cwd, stateFolder: state.folder },
    ...{ approvals: state.approvals, keptTools: state.tools, channelEcho },
    stoppable: makeStoppableCommand(),
    ...{ quit: () => void leave(0), notSent: state.notSent },
  };
  const { readline, keys } = openReadline(tty, state.history, report, earlyKeys);
  const afterCommand = makeAfterCommand({ screen, presenter });
  let pasted: PastedLines | undefined;
  const interrupt = makeInterrupt({
    ...{ presenter, screen, session: made, typed, persona, leave },
    ...{ waiting: waitingMailOf(made, presenter), notDone: afterCommand.ahead },
    halfTyped: { discard: () => discardTyped(readline, pasted) },
    command: context.stoppable,
  });

  // The agent is ready once it has greeted in this run (or the wait for that is over).
  const ready = Promise.race([followed.firstMessage, sleep(GREETING_WAIT_MS)]);
  const idle = () => waitUntilIdle(() => agentIdle(made, presenter, channelEcho), presenter);
  if (keys !== undefined) {
    screen.attachPrompt(readline);
    const start = { persona, ready, idle, unsent, afterCommand };
    pasted = followTerminal(readline, keys, context, typed, start);
    readline.on('SIGINT', () => void interrupt());
    readline.on('close', () => void leave(0));
    return;
  }

  // Not a terminal: one line at a time, each once the agent is idle.
  await runPipedChat(readline, {
    screen,
    presenter,
    context,
    ...{ idle, ready, unsent },
  });
  // A script learns from the exit code that a turn failed (its words are on the screen already).
  await leave(state.turnFailed() ? 1 : 0);
};
harden(runChat);
