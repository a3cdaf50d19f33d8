/**
 * Turns what happens into lines on the screen: the agent's progress events
 * (turns, model calls, a streamed reply's words as they come, tool calls,
 * usage) and the mail HOST receives. A
 * message the agent sends with a tool is shown after that tool's line, so
 * the screen reads "what it did", then "what it said". It alone says what
 * the agent is doing on the status line. A reply stopped while it streamed
 * (Ctrl-C) had its words only there: they are printed, cut short, as its turn ends.
 */
import type { AgentEvent } from '../../src/events/agent-events.js';
import { formatCount } from '../../src/usage/format-count.js';
import { columnsOf, fitColumns } from './columns.js';
import { describeToolCall } from './describe-tool-call.js';
import type { Screen } from './screen.js';

/** How long a message waits for the tool call that sent it to report. */
const HOLD_MS = 300;
const PREVIEW_CHARS = 160;
const TAIL_CHARS = 60;

export interface Presenter {
  observe(event: AgentEvent): void;
  /** A message for the person; held while a tool call is still reporting. */
  show(print: () => void): void;
  /** True while a turn runs or a tool call is out. */
  busy(): boolean;
  /** True while a turn runs (busy may be so without one: an approved call, a summary to come). */
  turnRunning(): boolean;
  /**
   * Prints once the turn in progress has said it is over (its "turn over"
   * line), at once when none runs: a line the person typed meanwhile goes
   * after that turn's lines, not above them.
   */
  afterTurn(print: () => void): void;
  /**
   * Prints just above the turn in progress's "turn over" line (which waits a
   * moment for the turn's last words), at once when none runs: what a turn
   * wrote that arrives as it ends.
   */
  atTurnOver(print: () => void): void;
  /**
   * Prints at once, unless a turn has ended and its "turn over" line is still to come (its
   * last words go above it): then right after that line. What a command typed meanwhile
   * shows goes after a turn's block, never between its answer and its summary.
   */
  pastTurnOver(print: () => void): void;
  /** When anything last happened (ms since the epoch). */
  lastActivity(): number;
  /** The message numbers (in the agent's inbox) whose turn has started. */
  startedMessages(): ReadonlySet<string>;
  /** How many turns have started so far. */
  turnsStarted(): number;
  /** The message number (in the agent's inbox) of the turn in progress, if any. */
  turnInProgress(): bigint | undefined;
  /**
   * With no turn running: the tool of a call the HOST approved that still runs (it outlived the
   * turn that asked), what Ctrl-C stops then (./interrupt.ts); else undefined.
   */
  approvedRun(): string | undefined;
  /**
   * The messages an earlier run left unanswered in the agent's inbox (`Session.earlierMail`):
   * a turn on one of them says so as it starts, for nothing on this run's screen asked it.
   */
  fromBefore(numbers: ReadonlySet<string>): void;
  touch(): void;
}

/** The daemon quotes a message number as marshal shows a bigint ("[6n]"): a person reads #6. */
const plainNumbers = (text: string): string => text.replace(/"\[(\d+)n\]"/g, '#$1');

const oneLine = (text: string): string => {
  const flat = plainNumbers(text).replace(/\s+/g, ' ').trim();
  return columnsOf(flat) > PREVIEW_CHARS ? `${fitColumns(flat, PREVIEW_CHARS - 1)}…` : flat;
};

/** The end of a growing text, on one line: what fits beside the prompt. */
const tailOf = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  // In columns, cut between letters (./columns.ts): a cut through an emoji would show as �.
  return columnsOf(flat) > TAIL_CHARS ? `…${fitColumns(flat, TAIL_CHARS - 1, 'end')}` : flat;
};

/**
 * The line that says what a turn is, for one that neither a message on the
 * screen nor an answer of yours began: a wake-up, a heartbeat check, a
 * helper at work, an answer in a channel, a message an earlier run left
 * unanswered (`fromBefore`). Undefined for the others.
 */
const headerOf = (title: string, fromBefore: boolean): string | undefined => {
  if (fromBefore) return `taking up ${title}, left unanswered when the last run ended`;
  const wake = /^wake-up (\S+): ([\s\S]*)$/.exec(title);
  if (wake !== null) return `wake-up ${wake[1]} (a schedule came due): ${wake[2]}`;
  const helper = /^helper (\S+): ([\s\S]*)$/.exec(title);
  if (helper !== null) return `helper ${helper[1]} at work on ${helper[2]}`;
  if (title.startsWith('heartbeat: '))
    return `heartbeat check: ${title.slice('heartbeat: '.length)}`;
  // An answer in a channel (src/channels/channel-speech.ts): which channel, which post, whose.
  if (title.startsWith('in channel ')) return `answering ${title}`;
  return undefined;
};

/** A turn's summary: how it ended, its model calls and tokens. */
const turnOverLine = (event: Extract<AgentEvent, { kind: 'turn-end' }>): string => {
  const { inputTokens, outputTokens, cachedInputTokens } = event.usage;
  const cached =
    cachedInputTokens === undefined ? '' : ` (${formatCount(cachedInputTokens)} cached)`;
  // A call stopped part-way was never counted by its server: its share is the agent's estimate.
  const about = event.usageEstimated === true ? 'about ' : '';
  const usage =
    inputTokens + outputTokens > 0
      ? `, ${about}${formatCount(inputTokens)} in${cached} / ${formatCount(outputTokens)} out tokens`
      : '';
  const served =
    event.models === undefined || event.models.length === 0 ? '' : ` (${event.models.join(', ')})`;
  const callCount = `${event.modelCalls} model call${event.modelCalls === 1 ? '' : 's'}${served}`;
  // Why it stopped, in a word: the agent has told HOST in its own message (one place says it).
  const how =
    event.stopReason === 'done' || event.stopReason === 'answered' ? '' : ` (${event.stopReason})`;
  const whose = /^helper (h\d+):/.exec(event.title)?.[1];
  return `  · ${whose === undefined ? '' : `helper ${whose}'s `}turn over${how}: ${callCount}${usage}`;
};

/** How long the turn's summary waits for the agent's last words (sent just after the turn ends). */
const SUMMARY_DELAY_MS = 150;

/** What the status line says after an event, undefined to leave it; `turnsLeft`: the turns running after it. */
const statusAfter = (event: AgentEvent, turnsLeft: number): string | undefined => {
  switch (event.kind) {
    case 'turn-start':
    case 'tool-result':
      return 'is thinking…';
    case 'model-call':
      return event.call > 1 ? `is thinking (call ${event.call})…` : 'is thinking…';
    case 'model-text':
      // A streamed reply as it comes: its latest words.
      return `is writing: ${tailOf(event.text)}`;
    case 'model-reply':
      // No tool called: its words are its answer, sent as the turn ends.
      return event.toolCalls > 0 ? 'is using tools…' : 'is finishing…';
    case 'tool-call':
      return `is running ${event.name}…`;
    case 'turn-end':
      // Over, its summary waiting a moment for its last words; then the prompt is idle.
      return turnsLeft === 0 ? 'is finishing…' : undefined;
    default:
      return undefined;
  }
};

/**
 * The text the model call under way has streamed, until its reply is whole (the agent sends
 * that); at the turn's end, words never made a reply had been on the status line alone: they
 * are kept on the screen, cut short.
 */
const makeStreamedWords = (screen: Screen, persona: string) => {
  let text = '';
  return {
    see(event: AgentEvent) {
      if (event.kind === 'model-text') text = event.text;
      else if (event.kind === 'model-call' || event.kind === 'model-reply') text = '';
    },
    keepCut() {
      if (text.trim() !== '')
        screen.print('agent', `${persona} (cut short, not sent) ›`, `${text.trimEnd()} …`);
      text = '';
    },
  };
};

/**
 * The tool calls begun and not yet answered. A call the HOST approved while its asking turn ran
 * outlives that turn (behaviour 6.7): it stays listed past the turn's end, so the prompt counts
 * as busy and Ctrl-C stops it, as it stops a call approved after the turn. Such a call (one put
 * to the HOST first: its `tool-asked` came with its id) is the turn's no longer: no message waits
 * for it, and its line says it is the approved run.
 */
const makeRunningCalls = (persona: string) => {
  const calls: { id: string; name: string; line: string; approved: boolean }[] = [];
  const asked = new Set<string>();
  return {
    ask: (id: string) => void asked.add(id),
    begin: (call: { id: string; name: string; summary: string }) =>
      void calls.push({
        id: call.id,
        name: call.name,
        line: describeToolCall(call.name, call.summary),
        approved: asked.delete(call.id),
      }),
    /**
     * The call a result is for, by the call's id (unique to the agent, a helper's too:
     * src/events/agent-events.ts), taken off the list: two calls of one tool may run at once and
     * end in either order.
     */
    end(result: { id: string; name: string }): { line: string; approved: boolean } {
      const at = calls.findIndex(call => call.id === result.id);
      return at === -1 ? { line: result.name, approved: false } : calls.splice(at, 1)[0]!;
    },
    count: () => calls.length,
    /** The calls a turn made itself (not approved runs): a message it sent waits for their lines. */
    turnsOwn: () => calls.filter(call => !call.approved).length,
    /** With no turn running: a call the HOST approved that still runs, else nothing (idle). */
    statusBetweenTurns: (): string | undefined =>
      calls[0] === undefined ? undefined : `${persona} is running ${calls[0].name}…`,
    /** The tool of the first call still running (with no turn running, an approved run's). */
    first: (): string | undefined => calls[0]?.name,
  };
};

/** Prints what a queue holds, in order, leaving it empty (a print may queue more: those wait). */
const printQueued = (queue: (() => void)[]) => {
  for (const print of queue.splice(0)) print();
};

/** Messages held while the turn's own tool calls report (`show`), for HOLD_MS at most. */
const makeHeldMessages = () => {
  const held: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    printQueued(held);
  };
  return {
    flush,
    hold(print: () => void) {
      held.push(print);
      timer ??= setTimeout(flush, HOLD_MS);
    },
  };
};

/** A tool call's line as it ends: an approved run's says so (it runs after the turn that asked). */
const printToolLine = (
  screen: Screen,
  call: { line: string; approved: boolean },
  result: Extract<AgentEvent, { kind: 'tool-result' }>,
) => {
  const head = `  → ${call.approved ? 'approved ' : ''}${call.line}`;
  if (result.ok) screen.print('tool-ok', head, '✓');
  else screen.print('tool-failed', head, `✗ ${oneLine(result.preview)}`);
};

export const makePresenter = (screen: Screen, persona: string): Presenter => {
  let activeTurns = 0;
  let turns = 0;
  let touched = Date.now();
  const started = new Set<string>();
  let earlier: ReadonlySet<string> = new Set();
  let inProgress: bigint | undefined;
  const calls = makeRunningCalls(persona);
  const held = makeHeldMessages();
  let summaries: string[] = [];
  let summaryTimer: NodeJS.Timeout | undefined;
  const afterTurns: (() => void)[] = [];
  const lastWords: (() => void)[] = [];
  const pastSummaries: (() => void)[] = [];
  const streamed = makeStreamedWords(screen, persona);

  const printSummaries = () => {
    if (summaryTimer !== undefined) clearTimeout(summaryTimer);
    summaryTimer = undefined;
    printQueued(lastWords);
    const out = summaries;
    summaries = [];
    for (const line of out) screen.print('usage', line);
    printQueued(pastSummaries);
    if (activeTurns > 0) return;
    // Only now is the prompt idle again (the turn's last line is above it), unless a call the
    // HOST approved during the turn still runs.
    if (out.length > 0) screen.status(calls.statusBetweenTurns());
    printQueued(afterTurns);
  };

  const touch = () => void (touched = Date.now());
  const afterTurn = (print: () => void) => {
    if (activeTurns === 0 && summaries.length === 0) print();
    else afterTurns.push(print);
  };
  const observe = (event: AgentEvent) => {
    touch();
    streamed.see(event);
    switch (event.kind) {
      case 'turn-start': {
        printSummaries();
        activeTurns += 1;
        turns += 1;
        const number = /^#(\d+) /.exec(event.title)?.[1] ?? '';
        // A turn no message on this screen began (a wake-up, a helper) says what it is first.
        const header = headerOf(event.title, earlier.has(number) && !started.has(number));
        if (header !== undefined) screen.print('usage', `  ◦ ${header}`);
        if (number !== '') started.add(number);
        inProgress = number === '' ? undefined : BigInt(number);
        break;
      }
      case 'tool-asked':
        calls.ask(event.id);
        break;
      case 'tool-call':
        calls.begin(event);
        break;
      case 'tool-result': {
        const call = calls.end(event);
        // An approved run goes after the turns running, below their answers and "turn over"
        // lines (behaviour 9.11: it runs after the turn that asked), whenever the person said y.
        if (call.approved) afterTurn(() => printToolLine(screen, call, event));
        else printToolLine(screen, call, event);
        if (calls.turnsOwn() === 0) held.flush();
        // A call that outlived its turn (approved as it ended): no model is asked after it, so
        // the status does not say thinking; a turn's summary still to come sets it itself.
        if (activeTurns > 0) break;
        if (summaries.length === 0) screen.status(calls.statusBetweenTurns());
        return;
      }
      case 'held':
        // Kept for later by the agent (its sender is told when): taken up, not waiting to be.
        started.add(String(event.number));
        break;
      case 'turn-end': {
        activeTurns = Math.max(0, activeTurns - 1);
        inProgress = undefined;
        held.flush();
        streamed.keepCut();
        summaries.push(turnOverLine(event));
        summaryTimer ??= setTimeout(printSummaries, SUMMARY_DELAY_MS);
        break;
      }
      default:
        break;
    }
    const status = statusAfter(event, activeTurns);
    if (status !== undefined) screen.status(`${persona} ${status}`);
  };

  return {
    observe,
    show(print) {
      touch();
      if (calls.turnsOwn() === 0) {
        print();
        return;
      }
      held.hold(print);
    },
    busy: () => activeTurns > 0 || calls.count() > 0 || summaries.length > 0,
    turnRunning: () => activeTurns > 0,
    afterTurn,
    atTurnOver(print) {
      if (activeTurns === 0 && summaries.length === 0) print();
      else lastWords.push(print);
    },
    pastTurnOver(print) {
      if (summaries.length === 0) print();
      else pastSummaries.push(print);
    },
    lastActivity: () => touched,
    startedMessages: () => started,
    turnsStarted: () => turns,
    turnInProgress: () => inProgress,
    approvedRun: () => (activeTurns === 0 ? calls.first() : undefined),
    fromBefore: numbers => void (earlier = numbers),
    touch,
  };
};
harden(makePresenter);
