/**
 * One run's share of the state folder (./state-folder.ts): the log of this
 * run, what earlier runs kept (restored unless `--fresh`), saved again a
 * moment after each turn and on leaving; and whether a turn failed or stopped
 * unanswered, for the piped exit code.
 */
import type { AgentEvent } from '../../src/events/agent-events.js';
import { describeError } from '../../providers/describe-error.js';
import { openAgentLog } from './agent-log-file.js';
import { makeKeptStore } from './kept-store.js';
import { makeKeptDaemon } from './kept-daemon.js';
import { makeInputHistory } from './input-history.js';
import { makeApprovals } from './approvals.js';
import { makeKeptTools, type ToolPowers } from './kept-tools.js';
import type { DaemonProfile, MailHost } from '../mail-host/index.js';
import { farewellLine, shownPath } from './state-folder.js';

/** The agent writes its memory just after a turn: it is kept a moment later. */
const SAVE_DELAY_MS = 300;

type StorePowers = Parameters<ReturnType<typeof makeKeptStore>['save']>[0];

export const openRunState = (options: {
  /** The process's environment (where the state folder is). */
  processEnv: Readonly<Record<string, string | undefined>>;
  /** The settings, .env included (LAL_LOG). */
  settings: Readonly<Record<string, string | undefined>>;
  persona: string;
  /** The state folder, made and locked for this run (./start-up.ts). */
  folder: string;
  fresh: boolean;
  /** The daemon generation played (each keeps an identity of its own). */
  profile: DaemonProfile;
  /** The daemon and the guest's powers, once the session is there. */
  session: () => { mailHost: MailHost; powers: StorePowers & ToolPowers } | undefined;
  report: (problem: string) => void;
  /** Tells the person something that is no problem. */
  note: (line: string) => void;
}) => {
  const { folder } = options;
  const kept = makeKeptStore(folder);
  const daemon = makeKeptDaemon(folder, options.fresh);
  const tools = makeKeptTools(folder, options.fresh);
  const log = openAgentLog(folder, options.settings);
  let turnFailed = false;
  let timer: NodeJS.Timeout | undefined;

  /** The daemon's identity and what it keeps (`numbersOnly`: the message numbers it reached). */
  const keepDaemon = (numbersOnly: boolean): void => {
    const session = options.session();
    if (session === undefined) return;
    try {
      if (numbersOnly) daemon.saveNumbers(options.profile, session.mailHost);
      else daemon.save(options.profile, session.mailHost);
    } catch (error) {
      options.report(
        `could not keep the daemon's identity in ${daemon.path}: ${describeError(error)}`,
      );
    }
  };

  const save = async (): Promise<void> => {
    clearTimeout(timer);
    const session = options.session();
    if (session === undefined) return;
    await kept.save(session.powers).catch((error: unknown) => {
      options.report(`could not keep the conversation in ${kept.path}: ${describeError(error)}`);
    });
    await tools.save(session.powers).catch((error: unknown) => {
      options.report(`could not keep the agent's tools in ${tools.path}: ${describeError(error)}`);
    });
    keepDaemon(false);
  };

  return {
    folder,
    log,
    /** The tools answered "always" for, kept between runs. */
    approvals: makeApprovals(folder, options.fresh),
    /** The lines typed at the prompt, kept between runs. */
    history: makeInputHistory(folder, options.fresh),
    /** The line that names the folder and the log. */
    intro: `${options.persona}'s state is kept in ${shownPath(folder, options.processEnv)} (${options.fresh ? 'started clean: --fresh' : '--fresh starts clean'}); its log is ${log.path === undefined ? `not written (${log.why})` : shownPath(log.path, options.processEnv)}. /help lists the commands.`,
    /** The line that says, as the person leaves, that it left and what it kept. */
    farewell: farewellLine(options.persona, folder, options.processEnv),
    /** The daemon to start: the one earlier runs were, unless `--fresh`. */
    daemon: {
      identity: daemon.identity(options.profile),
      started: (mailHost: MailHost) => daemon.started(options.profile, mailHost),
    },
    /** The tools the HOST attached this run (kept when the agent adopts them). */
    tools,
    /** What earlier runs kept, put back before the agent starts; the person told which tools came back. */
    restore: async (powers: StorePowers & ToolPowers, mailHost: MailHost): Promise<void> => {
      if (options.fresh) return;
      await kept.restore(powers);
      await daemon.putBackChannels(options.profile, mailHost);
      const said = await tools.restore(mailHost.host, mailHost.special, powers);
      if (said !== undefined) options.note(said);
    },
    see(event: AgentEvent) {
      // A message held for later (the hourly budget, a bound) is not answered in this run either.
      if (event.kind === 'held') turnFailed = true;
      if (event.kind !== 'turn-end') return;
      // A turn that did not answer (an error, a bound, the budget) fails a script as an error does.
      if (event.stopReason !== 'done' && event.stopReason !== 'answered') turnFailed = true;
      clearTimeout(timer);
      timer = setTimeout(() => void save(), SAVE_DELAY_MS);
    },
    save,
    /**
     * Before a message's number is shown: the numbering is kept at once, so a run killed before
     * its next save (kill -9 after the greeting) never has the next run show that number again
     * for another message (docs/behaviour.md 10.1).
     */
    keepNumbers: () => keepDaemon(true),
    turnFailed: () => turnFailed,
    /** A message the person wrote was not sent (over the daemon's limit): a script learns it as a failed turn. */
    notSent: () => {
      turnFailed = true;
    },
  };
};
harden(openRunState);
