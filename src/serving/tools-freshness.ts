/**
 * Keeps the tools offered up to date without making the sender wait. The
 * agent follows tools/'s name changes (both daemons offer
 * `followNameChanges` on a directory): a tool put there while the agent
 * waits is read before the next turn, and an unchanged tools/ costs no round
 * trip before a turn or after it. A change seen during a turn is read after
 * that turn, beside the dismissal and the memory write, rather than before
 * the next one; a followed, unchanged tools/ is not read then either (a
 * ping's extra round trip on the daemon, issue 46). A check is also where a
 * tools/ the daemon collected (tools-directory.ts) is found, made again, and
 * the tools left at the top level moved in: the daemon collects one only in
 * the window of its making (start-up, or made again here), and the check that
 * follows that making finds it. While tools/ holds a tool source (an MCP
 * bridge, tool-sources.ts), whose tools change without tools/ changing, it is
 * read before and after each turn, and so it is while tools/ cannot be
 * followed (its stream broke or never opened). adoptTool brings in a tool at
 * once itself. The HOST's tools() reads it too (`readNow`), so it names what
 * a turn would reach now, not what the last turn did.
 */
import { E } from '@endo/far';
import type { MailStream } from '../daemon/daemon-adapter.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { TOOLS_DIRECTORY, type ToolRegistry } from '../agent-tools/fae-tool-registry.js';
import { describeError } from '../../providers/describe-error.js';

/**
 * A change's formula id, `{ number, node }` in both daemons (a string if ever given whole); one
 * that does not read is `''`, which no name read in tools/ has, so the change is news.
 */
const idOf = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const { number, node } = (value ?? {}) as { number?: unknown; node?: unknown };
  return typeof number === 'string' && typeof node === 'string' ? `${number}:${node}` : '';
};

export interface ToolsFreshness {
  /** Starts following tools/ (after it was prepared at start). */
  follow(): Promise<void>;
  /** Before a turn: reads tools/ if it was never read or changed since. */
  beforeTurn(): Promise<void>;
  /** After a turn: checks tools/ again if it may have changed (and makes it again if it was collected). */
  afterTurn(): Promise<void>;
  /**
   * For the HOST's tools(): reads tools/ now, as a turn's check does, whether or not a change
   * was seen (one the HOST just made may not have reached the follower yet).
   */
  readNow(): Promise<void>;
  stop(): void;
}

export const makeToolsFreshness = (options: {
  powers: PowersRef;
  tools: ToolRegistry;
  log: Log;
  followNameChanges: (directory: unknown) => Promise<MailStream>;
  /** Makes tools/ again and moves the tools at the top level in (start-up's prepareToolsFolder). */
  remake: () => Promise<void>;
}): ToolsFreshness => {
  const { powers, tools, log, followNameChanges, remake } = options;
  let known = false;
  /** Name → formula id (undefined: removed) for each change seen since tools/ was last read. */
  const changes = new Map<string, string | undefined>();
  let stopped = false;
  let following: MailStream | undefined;

  /** Ends a stream of name changes; its end needs no answer. */
  const close = (stream: MailStream) => {
    Promise.resolve(stream.return(undefined)).catch(() => {});
  };

  const stopFollowing = () => {
    const stream = following;
    following = undefined;
    if (stream !== undefined) close(stream);
  };

  const follow = async (): Promise<void> => {
    stopFollowing();
    let stream: MailStream;
    try {
      stream = await followNameChanges(await E(powers).lookup(TOOLS_DIRECTORY));
    } catch (error) {
      log(`cannot follow tools/ (${describeError(error)}); it is read before each turn`);
      return;
    }
    if (stopped) {
      close(stream);
      return;
    }
    following = stream;
    // First the names it holds, then each change: any of them means "read it before the next turn".
    const watch = async (): Promise<void> => {
      for (;;) {
        // eslint-disable-next-line no-await-in-loop -- one change at a time, as the daemon gives them
        const step = await stream.next();
        if (following !== stream) return;
        if (step.done) throw Error('the daemon ended it');
        const change = step.value as { add?: unknown; remove?: unknown; value?: unknown };
        if (typeof change.add === 'string') changes.set(change.add, idOf(change.value));
        else if (typeof change.remove === 'string') changes.set(change.remove, undefined);
      }
    };
    watch().catch((error: unknown) => {
      if (following !== stream || stopped) return;
      // Changes no longer reach us: tools/ is read before and after each turn instead.
      following = undefined;
      log(`stopped following tools/ (${describeError(error)}); it is read before each turn`);
    });
  };

  /** Whether a change seen is news: the first names the follower gives are those already read. */
  const changedSinceRead = (): boolean => {
    const news = [...changes].some(([petName, id]) => tools.knownId(petName) !== id);
    changes.clear();
    return news;
  };

  const check = async (): Promise<void> => {
    changes.clear();
    try {
      if ((await tools.refresh()) === 'collected') {
        log(`${TOOLS_DIRECTORY}/ names a directory the daemon collected: making it again`);
        await remake();
        const again = await tools.refresh();
        await follow();
        // Collected again as it was made: checked again at the next turn's end.
        known = again !== 'collected';
        return;
      }
      known = true;
    } catch (error) {
      // What changed was not read: read at the next chance.
      known = false;
      log(`could not check tools/: ${describeError(error)}`);
    }
  };

  // A tool source (an MCP bridge) may have changed its tools since: asked every time.
  // Unfollowed (it could not be followed, or its stream broke), tools/ is read every time.
  const checkIfChanged = () =>
    known && following !== undefined && !changedSinceRead() && !tools.hasSources()
      ? Promise.resolve()
      : check();

  return {
    follow,
    beforeTurn: checkIfChanged,
    afterTurn: checkIfChanged,
    readNow: check,
    stop: () => {
      stopped = true;
      stopFollowing();
    },
  };
};
harden(makeToolsFreshness);
