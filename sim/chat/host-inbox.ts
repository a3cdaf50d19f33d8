/**
 * The person's side of the mail: follows HOST's inbox, shows each new
 * message (the agent's words, its eval-proposals with how to answer them,
 * and on the newest daemon its requests to run code, shown with the code),
 * dismisses HOST's own sent copies, and keeps track of proposals still
 * waiting for an answer.
 */
import { E } from '@endo/far';
import {
  idFromLocator,
  makeDaemonAdapter,
  type MailStream,
} from '../../src/daemon/daemon-adapter.js';
import { makeSenderNames } from './sender-name.js';
import { byAgentId, codeAnswers, makeCodeRequests } from './code-requests.js';
import type { HostPowers, MessageRecord } from '../mail-host/index.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';
import { FIRST_STATUS } from '../../src/progress/progress-status.js';
import { packageText } from './package-text.js';
import { answersDo } from './answer-approval.js';

/**
 * What waits for the person's answer: an eval-proposal (f0a46042a), a
 * request for approval of a tool call, or a request to run code (the newest
 * daemon runs a guest's `evaluate` unasked, so the agent asks @host first:
 * src/asks/host-approved-evaluation.ts).
 */
type PendingKind = 'proposal' | 'approval' | 'code';

export interface HostInbox {
  /** Proposals and requests not yet answered, oldest first. */
  pendingProposals(): bigint[];
  /** What a waiting message is. */
  pendingKind(number: bigint): PendingKind | undefined;
  /** The tool an approval request waiting is about. */
  pendingTool(number: bigint): string | undefined;
  /** The message that showed the code a request to run code is about (it goes once that is answered). */
  codeMessage(number: bigint): bigint | undefined;
  /** No longer waiting on this proposal (answered or dismissed). */
  forget(number: bigint): void;
  /**
   * Resolves once a message from someone other than HOST has arrived, not one the inbox held
   * before the agent started (the agent's greeting, as a rule: it is ready).
   */
  firstMessage: Promise<void>;
  /** Ends the follow. */
  stop(): void;
}

/** An agent's request for the HOST's approval of a tool call (src/asks/approval-gate.ts). */
const APPROVAL =
  /^(?:While serving message #\d+ from .+?, )?(\S+) asks to call ([\s\S]*) \(approval (a\d+)\)\./;

/** The agent's id for a request for approval (a2), as its words and help() name it. */
export const approvalIdOf = (description: string): string | undefined =>
  APPROVAL.exec(description)?.[3];
harden(approvalIdOf);

/** The tool a request for approval is about: the first word of the call it shows. */
const toolOf = (description: string): string | undefined =>
  /^[\w.-]+/.exec(APPROVAL.exec(description)?.[2] ?? '')?.[0];

/** Shows a request for approval with what to type to answer it. */
const showApproval = (screen: Screen, number: bigint, sender: string, description: string) => {
  const n = String(number);
  const found = APPROVAL.exec(description);
  const action = found?.[2] ?? description;
  const tool = toolOf(description) ?? 'this tool';
  screen.print(
    'proposal',
    `#${n} ${sender} asks to call a tool (approval request #${n}):`,
    `${action}\nallow it? ${answersDo(tool)}; then Enter — or /grant ${n} · /reject ${n} [reason]${byAgentId(sender, found?.[3])}`,
  );
};

/** Shows a proposal with what to type to answer it, and the agent's id for it when known. */
const showProposal = (
  screen: Screen,
  record: Extract<MessageRecord, { type: 'eval-proposal-reviewer' }>,
  sender: string,
  id: string | undefined,
) => {
  const n = String(record.number);
  const endowments = record.codeNames.map(
    (code, index) =>
      `${code} <- ${record.edgeNames[index] ?? record.petNamePaths[index]?.join('/') ?? '?'}`,
  );
  const details = [
    record.source,
    `endowments: ${endowments.length > 0 ? endowments.join(', ') : 'none'}${record.workerName === undefined ? '' : ` · worker: ${record.workerName}`}`,
    `${codeAnswers(n)}${byAgentId(sender, id)}`,
  ];
  screen.print(
    'proposal',
    `#${n} ${sender} asks to run code (eval-proposal #${n}):`,
    details.join('\n'),
  );
};

/**
 * Shows a proposal with the agent's id for it. It carries only its code: the id is in the
 * agent's store, written once the piece of work that proposed it is done, so a proposal not
 * found there yet is shown once that turn is over (issue 45: a person must not have to guess p1).
 */
const proposalShown = async (
  options: {
    screen: Screen;
    proposalIdOf?: (number: bigint) => Promise<string | undefined>;
  },
  shown: ShownInOrder,
  record: Extract<MessageRecord, { type: 'eval-proposal-reviewer' }>,
  sender: string,
) => {
  const { screen } = options;
  const idOf = options.proposalIdOf ?? (() => Promise.resolve(undefined));
  const id = await idOf(record.number).catch(() => undefined);
  if (id !== undefined) {
    shown.place(() => showProposal(screen, record, sender, id));
    return;
  }
  shown.afterTurn(async () => {
    const later = await idOf(record.number).catch(() => undefined);
    showProposal(screen, record, sender, later);
  });
};

interface ShownInOrder {
  /** Shows a message, after any held for its turn to be over. */
  place(print: () => void): void;
  /** Shows a message once the turn in progress is over; those that come meanwhile wait for it. */
  afterTurn(print: () => Promise<void>): void;
}

/**
 * Messages shown in the order of their numbers (issue 45): one that waits for its turn to be
 * over (a proposal, for the agent's id for it) holds back those after it, so "#3 lal › I have
 * asked my host…" is not shown above "#2 lal asks to run code".
 */
const shownInOrder = (presenter: Pick<Presenter, 'show' | 'afterTurn'>): ShownInOrder => {
  let held: (() => void | Promise<void>)[] | undefined;
  const release = async () => {
    while (held !== undefined && held.length > 0) await held.shift()!();
    held = undefined;
  };
  return {
    place(print) {
      if (held === undefined) presenter.show(print);
      else held.push(() => presenter.show(print));
    },
    afterTurn(print) {
      if (held !== undefined) {
        held.push(print);
        return;
      }
      held = [print];
      presenter.afterTurn(() => void release());
    },
  };
};

/** Waits for an answer until the request settles (answered here, or by a restart's replay). */
const awaitsAnswer = (
  pending: Map<bigint, PendingKind>,
  record: { number: bigint; settled: Promise<unknown> },
  kind: PendingKind,
) => {
  pending.set(record.number, kind);
  record.settled.then(
    () => pending.delete(record.number),
    () => pending.delete(record.number),
  );
};

/** What ./chat.ts gives the follow of HOST's inbox. */
interface FollowOptions {
  host: HostPowers;
  hostId: string;
  /** The messages HOST's inbox held before the agent started (./session.ts `hostMailBefore`). */
  before?: ReadonlySet<string>;
  screen: Screen;
  presenter: Presenter;
  report: (problem: string) => void;
  /**
   * Why this tool's calls need no answer, if they do not: the person answered
   * "always" for it, or started with --yes (./approvals.ts). The agent no longer
   * asks, but a request made before (another waiting, or one kept from an
   * earlier run) is approved as it comes (`approve`), and said in one line.
   */
  unaskedBy?: (tool: string) => string | undefined;
  approve?: (number: bigint) => Promise<void>;
  /** The agent's own id for a waiting eval-proposal (./agent-ids.ts), undefined while its store has none. */
  proposalIdOf?: (number: bigint) => Promise<string | undefined>;
  /** Called before a message's number is first shown (./run-state.ts `keepNumbers`). */
  numberShown?: () => void;
}

export const followHostInbox = (options: FollowOptions): HostInbox => {
  const { host, hostId, screen, presenter } = options;
  const pending = new Map<bigint, PendingKind>();
  const tools = new Map<bigint, string>();
  const codeRequests = makeCodeRequests(screen);
  const inOrder = shownInOrder(presenter);
  const place = inOrder.place;
  let stopped = false;
  let iterator: MailStream | undefined;
  /**
   * What each message number showed. The newest daemon's live progress posts
   * a placeholder reply, then edits it (`done: false`) until the answer
   * (`done: true`): each finished text is shown once, the drafts between not.
   */
  const shown = new Map<bigint, string>();
  let resolveFirst: () => void = () => {};
  const firstMessage = new Promise<void>(resolve => {
    resolveFirst = resolve;
  });

  const nameOf = makeSenderNames(host, hostId);

  const awaitAnswer = (record: { number: bigint; settled: Promise<unknown> }, kind: PendingKind) =>
    awaitsAnswer(pending, record, kind);

  const handle = async (record: MessageRecord): Promise<void> => {
    if ((record as { done?: boolean }).done === false) return;
    const text = record.type === 'package' ? packageText(record.strings, record.names) : '';
    // A live-progress placeholder, posted only once a turn has run a second: the status line
    // already says the agent thinks, and its answer comes as an edit of the same number.
    if (text === FIRST_STATUS && !shown.has(record.number)) return;
    if (shown.get(record.number) === text) return;
    shown.set(record.number, text);
    const from = idFromLocator(record.from);
    if (from === hostId) {
      // HOST's own sent copies would fill /inbox with what the person typed.
      await E(host)
        .dismiss(record.number)
        .catch(() => {});
      return;
    }
    const sender = await nameOf(record.from);
    const n = String(record.number);
    options.numberShown?.();
    switch (record.type) {
      case 'package':
        // The code to be read before a request to run it: shown with that request, which follows.
        if (codeRequests.keepCode(from, record.number, text)) break;
        place(() => screen.print('agent', `#${n} ${sender} ›`, text));
        break;
      case 'eval-proposal-reviewer':
        awaitAnswer(record, 'proposal');
        await proposalShown(options, inOrder, record, sender);
        break;
      case 'request': {
        const codeRequest = codeRequests.request(from, record.number, sender, record.description);
        if (codeRequest !== undefined) {
          awaitAnswer(record, 'code');
          place(codeRequest);
          break;
        }
        if (APPROVAL.test(record.description)) {
          const tool = toolOf(record.description);
          const unasked = tool === undefined ? undefined : options.unaskedBy?.(tool);
          if (unasked !== undefined && options.approve) {
            place(() =>
              screen.print('note', `#${n} ${sender} calls ${tool}: allowed (${unasked})`),
            );
            await options.approve(record.number);
            break;
          }
          if (tool !== undefined) tools.set(record.number, tool);
          awaitAnswer(record, 'approval');
          place(() => showApproval(screen, record.number, sender, record.description));
          break;
        }
        place(() =>
          screen.print(
            'note',
            `#${n} ${sender} requests:`,
            `${record.description} (the simulator cannot answer requests; /dismiss ${n})`,
          ),
        );
        break;
      }
      default:
        place(() => screen.print('note', `#${n} ${sender} sent a ${record.type} message`));
    }
    if (options.before?.has(n) !== true) resolveFirst();
  };

  const follow = async () => {
    // Either daemon: a remote iterator at f0a46042a, an exo-stream reader with locators in the newest.
    const daemon = await makeDaemonAdapter(host, () => {});
    iterator = await daemon.follow();
    if (stopped) void iterator.return(undefined).catch(() => {});
    for (;;) {
      const step = await iterator.next();
      if (step.done === true || stopped) return;
      await handle(step.value as MessageRecord).catch((error: unknown) =>
        options.report(`could not show message: ${(error as Error).message}`),
      );
    }
  };
  follow().catch((error: unknown) => {
    if (!stopped) options.report(`stopped following HOST's inbox: ${(error as Error).message}`);
  });

  return {
    pendingProposals: () => [...pending.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    pendingKind: number => pending.get(number),
    pendingTool: number => (pending.has(number) ? tools.get(number) : undefined),
    codeMessage: number => codeRequests.codeMessage(number),
    forget: number => {
      pending.delete(number);
      tools.delete(number);
      codeRequests.forget(number);
    },
    firstMessage,
    stop() {
      stopped = true;
      if (iterator !== undefined) void iterator.return(undefined).catch(() => {});
    },
  };
};
harden(followHostInbox);

/**
 * What leaving ends: the eval-proposals still waiting, which the f0a46042a daemon cannot keep over a
 * restart (the agent says so at its next start: NOT RUN); requests of the newest daemon are kept.
 */
export const unansweredProposals = (
  inbox: Pick<HostInbox, 'pendingProposals' | 'pendingKind'>,
): ((persona: string) => string) | undefined => {
  const numbers = inbox.pendingProposals().filter(n => inbox.pendingKind(n) === 'proposal');
  if (numbers.length === 0) return undefined;
  const many = numbers.length > 1;
  return persona =>
    `left with eval-proposal${many ? 's' : ''} ${numbers.map(n => `#${n}`).join(', ')} unanswered: this daemon cannot keep a proposal over a restart, so ${persona} will say at its next start that ${many ? 'they were' : 'it was'} not run (/grant or /reject before /quit answers one)`;
};
harden(unansweredProposals);

/**
 * What leaving leaves waiting: requests for approval of a tool call, which the daemon keeps, so the
 * agent asks again at the next start (and `--yes` or an answer of always then answers them).
 */
export const unansweredApprovals = (
  inbox: Pick<HostInbox, 'pendingProposals' | 'pendingKind'>,
): ((persona: string) => string) | undefined => {
  const numbers = inbox.pendingProposals().filter(n => inbox.pendingKind(n) === 'approval');
  if (numbers.length === 0) return undefined;
  const many = numbers.length > 1;
  const last = String(numbers.at(-1));
  return persona =>
    `left with approval request${many ? 's' : ''} ${numbers.map(n => `#${n}`).join(', ')} unanswered: ${many ? 'they are' : 'it is'} kept, so ${persona} asks again at the next start. ` +
    // One plain clause each (issue 45, trial 15): what y, n and a do, /grant and /reject, /quit.
    `Then y runs the ${many ? 'latest ' : ''}call, n refuses it, a runs it and that tool's later calls without asking; ` +
    `/grant ${last} and /reject ${last} answer ${many ? 'one' : 'it'} too; /quit leaves ${many ? 'them' : 'it'} waiting, as now.`;
};
harden(unansweredApprovals);
