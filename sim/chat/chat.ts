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
import { makeAfterCommand } from './after-command.js';
import { agentIdle, waitUntilIdle } from './wait-until-idle.js';
import { runPipedChat } from './piped-chat.js';
import type { startUp } from './start-up.js';
import { openReadline } from './read-lines.js';
import { approveRequest, isAnswerAtPrompt } from './answer-approval.js';
import { makeStoppableCommand } from './stoppable-command.js';
import { holdUntilReady } from './held-until-ready.js';
import { joinPastedLines, type PastedLines } from './pasted-lines.js';
import type { EarlyKeys } from './early-keys.js';

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
  context: CommandContext,
  typed: TypedLines,
  start: { persona: string; ready: Promise<unknown>; idle: () => Promise<void>; unsent: string[] },
): PastedLines => {
  const { screen, presenter } = context;
  // A line typed while a command of the person's still runs waits for it, and says so.
  const afterCommand = makeAfterCommand({ screen, presenter });
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
    input: process.stdin,
    output: process.stdout,
    readline,
    note: text => screen.print('note', text),
    onLine: line => {
      const command = parseCommand(line);
      // Enter on an empty line: the prompt again on the new row, as a shell does.
      if (command.kind === 'empty') readline.prompt();
      if (held.hold(line)) return;
      typed.place(line, kindOf(command, context.inbox));
      chain = chain.then(afterCommand.queue(line, () => runCommand(command, shown)));
    },
  });
};

type Started = Awaited<ReturnType<typeof startUp>>;

export const runChat = async (started: Started, earlyKeys: EarlyKeys): Promise<void> => {
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
  session = await startSession({
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
  const inbox = followHostInbox({
    host: session.mailHost.host,
    hostId: session.mailHost.hostId,
    before: session.hostMailBefore,
    ...{ screen, presenter, report },
    unaskedBy: tool => state.approvals.unaskedBy(tool),
    approve: number => approveRequest(session.mailHost.host, number),
    proposalIdOf: number => proposalIdOf(session, inbox, number),
    numberShown: state.keepNumbers,
  });

  const leave = async (code: number): Promise<never> => {
    if (!leaving) {
      leaving = true;
      screen.status(undefined);
      for (const unanswered of [unansweredProposals(inbox), unansweredApprovals(inbox)])
        if (unanswered !== undefined) screen.print('note', unanswered(session.guestName));
      sayDropped(screen, persona, unsent);
      inbox.stop();
      channelEcho.stop();
      // Cancelling through the caplet's context aborts a model call in flight.
      await Promise.race([
        session.caplet.cancel('the host left').catch(() => {}),
        sleep(CANCEL_WAIT_MS),
      ]);
      await state.save();
      releaseState();
      await double?.close();
      screen.close();
      // One line says it left, in place of the prompt (the screen no longer draws it).
      if (tty) screen.print('note', state.farewell);
      state.log.close();
      restoreConsole();
      restoreStderr();
    }
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => void leave(0));
  // A reader that went away (`npm start | head`) ends the chat quietly.
  process.stdout.on('error', () => void leave(0));

  const context: CommandContext = {
    ...{ session, screen, inbox, presenter, cwd, stateFolder: state.folder },
    approvals: state.approvals,
    ...{ keptTools: state.tools, channelEcho },
    stoppable: makeStoppableCommand(),
    quit: () => void leave(0),
  };
  const readline = openReadline(tty, state.history, report, earlyKeys);
  const waiting = waitingMailOf(session, presenter);
  let pasted: PastedLines | undefined;
  const interrupt = makeInterrupt({
    ...{ presenter, screen, session, waiting, typed, persona, leave },
    halfTyped: { discard: () => discardTyped(readline, pasted) },
    command: context.stoppable,
  });

  // The agent is ready once it has greeted in this run (or the wait for that is over).
  const ready = Promise.race([inbox.firstMessage, sleep(GREETING_WAIT_MS)]);
  const idle = () => waitUntilIdle(() => agentIdle(session, presenter, channelEcho), presenter);
  if (tty) {
    screen.attachPrompt(readline);
    pasted = followTerminal(readline, context, typed, { persona, ready, idle, unsent });
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
