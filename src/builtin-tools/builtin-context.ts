/**
 * What a built-in tool runs against during one turn: the guest's powers,
 * the trackers of pending work, the FaeTool registry, the message being
 * served, and the hooks that tell the turn what a call did.
 */
import type { PowersRef } from '../daemon/guest-powers.js';
import type { NameOf } from '../mail/sender-names.js';
import type { Origin } from '../asks/proposal-tracker.js';
import type { Facet } from '../parties/facets.js';
import type { RecallResult } from '../recall/search-history.js';
import type { WakeUps } from '../schedule/wake-ups.js';
import type { ToolRegistry } from '../agent-tools/fae-tool-registry.js';
import type { ToolGivers } from '../agent-tools/tool-givers.js';
import type { MarkForHost } from '../policy/model-words.js';

/** What the `helper` op reads (src/agent-tools/builtin-schemas.ts). */
interface HelperAsk {
  task: string;
  /** Tool, op and pet names, and budget items ("5 calls", "90s": ./helper-budget.ts). */
  grant: readonly string[];
}

/** Makes a helper for one turn's (or one helper's) model (src/helpers/helpers.ts makes it). */
export type MakeHelper = (ask: HelperAsk) => Promise<Readonly<Record<string, unknown>>>;

export interface BuiltinContext {
  powers: PowersRef;
  nameOf: NameOf;
  /** Code proposed to the HOST, as the turn's facet holds it (src/parties/facets.ts). */
  proposals: Facet['proposals'];
  /** Requests to others, as the turn's facet holds them: it says at once when a recipient is not there. */
  requests: Facet['requests'];
  tools: ToolRegistry;
  /** The message the current turn is about, if any. */
  origin: Origin | undefined;
  /** The `schedule` tool's wake-ups; absent where a host gives none. */
  wakeUps?: Pick<WakeUps, 'schedule'>;
  /** What the turn has read or shows that did not come from the HOST: a schedule made now carries it (src/history/word-labels.ts). */
  read?: () => string | undefined;
  /** Searches the conversation kept in the store (mail's `recall` op): a sender's turn its own exchanges, the HOST's all (behaviour 9.1); absent where none is kept. */
  recall?: (query: string) => Promise<RecallResult>;
  /** The HOST's name in this daemon (HOST, @host). */
  hostName?: string;
  /** Who gave each tool adopted from others (./tool-givers.ts). */
  givers?: ToolGivers;
  /** Whether a listed path is the guest's own directory, whose own names are left out (src/policy/store-boundary.ts). */
  isOwnDirectory?: (path: readonly string[]) => Promise<boolean>;
  /** The agent's mark before the model's text to the HOST, when this turn needs one (src/policy/model-words.ts). */
  markForHost?: MarkForHost;
  /** Makes a helper agent (mail's helper op, src/helpers/); absent where none may be made. */
  helpers?: MakeHelper;
  /** Says the model's reply/send instead of the daemon (the newest daemon's live progress: an edit). */
  speak?: Speak;
}

export interface Speak {
  reply(
    number: bigint,
    strings: string[],
    edgeNames: string[],
    petNames: (string | string[])[],
  ): Promise<void>;
  send(
    recipient: string,
    strings: string[],
    edgeNames: string[],
    petNames: (string | string[])[],
  ): Promise<void>;
}
