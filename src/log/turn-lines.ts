/**
 * The agent's progress as log lines, as LAL_LOG asks (docs/configuration.md):
 * `steps`, one line per event (describe-event.ts); `turns`, the default, one
 * line per turn, written when it ends: whom it served, how it ended, the
 * model calls, the tools called, the tokens and the time. A daemon's log
 * stays readable after hundreds of pings (issue: six lines a ping filled
 * 8.7 MB after 400 pings).
 */
import type { AgentEvent } from '../events/agent-events.js';
import { describeEvent } from '../events/describe-event.js';
import type { LogLevel } from '../settings/settings.js';

/** One turn being summed up; helpers' turns start and end inside their maker's, so turns nest. */
interface OpenTurn {
  title: string;
  startedAt: number;
  tools: Map<string, number>;
  /** Calls put to the HOST for approval, by tool: called, though not run in the turn. */
  asked: Map<string, number>;
  failed: number;
}

const counted = (name: string, count: number) => (count === 1 ? name : `${name} ×${count}`);

const toolsSaid = ({ tools, asked, failed }: OpenTurn): string => {
  if (tools.size === 0 && asked.size === 0) return 'no tool';
  const names = [
    ...[...asked].map(([name, count]) => `${counted(name, count)} (waits for approval)`),
    ...[...tools].map(([name, count]) => counted(name, count)),
  ];
  return `tools: ${names.join(', ')}${failed === 0 ? '' : ` (${failed} failed)`}`;
};

const turnLine = (
  turn: OpenTurn,
  end: Extract<AgentEvent, { kind: 'turn-end' }>,
  now: number,
): string => {
  const calls = `${end.modelCalls} model call${end.modelCalls === 1 ? '' : 's'}`;
  const about = end.usageEstimated === true ? 'about ' : '';
  const tokens = `${about}${end.usage.inputTokens} in / ${end.usage.outputTokens} out`;
  const seconds = ((now - turn.startedAt) / 1000).toFixed(1);
  const error = end.error === undefined ? '' : `: ${end.error}`;
  return `turn ${turn.title}: ${end.stopReason}, ${calls}, ${toolsSaid(turn)}, ${tokens}, ${seconds} s${error}`;
};

/** Turns events into log lines at `level`; `now` is the time for the turns' durations. */
export const makeTurnLines = (
  level: LogLevel,
  now: () => number = () => Date.now(),
): ((event: AgentEvent) => string | undefined) => {
  if (level === 'off') return () => undefined;
  if (level === 'steps') return describeEvent;
  const open: OpenTurn[] = [];
  return event => {
    switch (event.kind) {
      case 'turn-start':
        open.push({
          title: event.title,
          startedAt: now(),
          tools: new Map(),
          asked: new Map(),
          failed: 0,
        });
        return undefined;
      case 'tool-call': {
        const turn = open.at(-1);
        turn?.tools.set(event.name, (turn.tools.get(event.name) ?? 0) + 1);
        return undefined;
      }
      case 'tool-asked': {
        const turn = open.at(-1);
        turn?.asked.set(event.name, (turn.asked.get(event.name) ?? 0) + 1);
        return undefined;
      }
      case 'tool-result': {
        const turn = open.at(-1);
        if (turn !== undefined && !event.ok) turn.failed += 1;
        return undefined;
      }
      case 'turn-end': {
        const turn = open.pop();
        // An end without its start (an observer added mid-turn) still says how it ended.
        return turn === undefined ? describeEvent(event) : turnLine(turn, event, now());
      }
      case 'model-call':
      case 'model-reply':
      case 'model-text':
        return undefined;
      default:
        return describeEvent(event);
    }
  };
};
harden(makeTurnLines);
