/**
 * Errors that teach: when a built-in tool fails on a name that does not
 * exist, the error says what would have been right, so the model can
 * correct itself instead of guessing again (a real model called adoptTool
 * with edge `math` for a message whose edge is `math-tool`). Looked up only
 * after a failure: the messages in the inbox for a message number that is
 * not there, the edges a message has for an edge name it lacks, the pet
 * names nearest to one that is missing.
 */
import { E } from '@endo/far';
import type { MessageRecord } from '../mail/message-record.js';
import { stringList } from '../mail/message-record.js';
import type { BuiltinContext } from './builtin-context.js';
import { closestNames } from '../../providers/closest-names.js';
import { quoteNames } from '../encoding/quote-names.js';
import type { Args } from '../agent-tools/read-args.js';
import type { GroupedCall } from '../agent-tools/tool-groups.js';
import { builtinDefinition } from '../agent-tools/builtin-schemas.js';

/** Inbox numbers named at most, the most recent. */
const NUMBERS_SHOWN = 10;
/** Names of a folder shown when none is near the one asked for. */
const NAMES_SHOWN = 5;

type Path = string[];

/** A path as the call's values hold one: names, which ./read-args.ts has refused empty. */
const isPath = (value: unknown): value is Path =>
  Array.isArray(value) && value.every(part => typeof part === 'string');

/** A name or path as the call's values hold it; anything else names nothing. */
const asPath = (value: unknown): Path =>
  typeof value === 'string' ? value.split('/') : isPath(value) ? value : [];

/** What a tool or op reads that must exist, and what it makes, from its record (./builtin-schemas.ts). */
const namedBy = (
  name: string,
  op: string,
): { existing: readonly string[]; made: readonly string[]; kinds: Record<string, string> } => {
  const definition = builtinDefinition(name);
  const record = definition?.ops?.[op] ?? definition;
  const kinds = Object.fromEntries(
    Object.entries(definition?.parameters ?? {}).map(([key, parameter]) => [key, parameter.kind]),
  );
  return { existing: record?.existing ?? [], made: record?.made ?? [], kinds };
};

/** The paths the call names that must exist: of a name it makes, the folder it goes in. */
const pathsNamed = (name: string, op: string, args: Args): Path[] => {
  const { existing, made, kinds } = namedBy(name, op);
  const found: Path[] = [];
  for (const key of existing) {
    // A `paths` parameter names several, each of which must exist.
    const items = kinds[key] === 'paths' ? args[key] : [args[key]];
    if (Array.isArray(items)) for (const item of items) found.push(asPath(item));
  }
  for (const key of made) found.push(asPath(args[key]).slice(0, -1));
  return found;
};

type Far = {
  has(...path: string[]): Promise<boolean>;
  list(...path: string[]): Promise<string[]>;
  listMessages(): Promise<MessageRecord[]>;
};

/** A hint, and what the error must name for the hint to be about it. */
interface Hint {
  /** Found in the error's text when the error is about this: a quoted name, or a number. */
  about: RegExp;
  text: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const aboutName = (name: string) => new RegExp(escape(JSON.stringify(name)));
const aboutNumber = (number: bigint) => new RegExp(`(?<![0-9])${number}(?![0-9])`);

/** The first name of `path` that does not exist, and the names nearest to it; undefined when all do (or none is given). */
const missingName = async (powers: Far, path: Path): Promise<Hint | undefined> => {
  for (let index = 0; index < path.length; index += 1) {
    const prefix = path.slice(0, index + 1);
    // A name the daemon refuses to look at (`Invalid name "Bob"`) is not there either.
    // eslint-disable-next-line no-await-in-loop -- each step only if the one before exists
    if (await powers.has(...prefix).catch(() => false)) continue;
    const folder = path.slice(0, index);
    const where = folder.length === 0 ? 'your directory' : `"${folder.join('/')}"`;
    // eslint-disable-next-line no-await-in-loop -- once, for the name that is missing
    const names = await powers.list(...folder);
    const near = closestNames(path[index]!, names);
    const about = aboutName(path[index]!);
    const missing = `there is no "${path[index]}" in ${where}`;
    if (names.length === 0) return { about, text: `${missing}, which is empty` };
    if (near.length > 0)
      return { about, text: `${missing}; the nearest names there: ${quoteNames(near)}` };
    const some = names.slice(0, NAMES_SHOWN);
    return {
      about,
      text: `${missing}; the names there: ${quoteNames(some)}${names.length > some.length ? ` (${names.length} in all)` : ''}`,
    };
  }
  return undefined;
};

/** The daemon's words for a name it refuses (`Invalid name "runCommand"`, `Invalid pet name …`). */
const INVALID_NAME = /Invalid (?:pet )?name ("(?:[^"\\]|\\.)*")/;

/**
 * The naming rule, when the daemon refused a name (at f0a46042a pet names are
 * lowercase): what a valid name looks like, and the one nearest the name given.
 */
const nameRuleHint = (message: string): Hint | undefined => {
  const found = INVALID_NAME.exec(message);
  if (found === null) return undefined;
  let given: unknown;
  try {
    given = JSON.parse(found[1]!);
  } catch {
    return undefined;
  }
  if (typeof given !== 'string') return undefined;
  const valid = given
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 128);
  return {
    about: aboutName(given),
    text: `a pet name is lowercase letters, digits and "-", starting with a letter or digit, at most 128 characters${valid === '' ? '' : `: "${valid}" would do`}`,
  };
};

/** What is wrong with the message number or edge name, when either names nothing. */
const messageHint = async (powers: Far, args: Args): Promise<Hint | undefined> => {
  // The call's values hold a message number as the bigint ./read-args.ts read from 5, "5" or "+5".
  const number = args.messageNumber;
  if (typeof number !== 'bigint') return undefined;
  const inbox = await powers.listMessages();
  const message = inbox.find(each => each.number === number);
  if (message === undefined) {
    const numbers = inbox
      .map(each => each.number)
      .filter((each): each is bigint => typeof each === 'bigint')
      .slice(-NUMBERS_SHOWN);
    return {
      about: aboutNumber(number),
      text:
        numbers.length === 0
          ? `there is no message #${number}: your inbox is empty`
          : `there is no message #${number}; your inbox holds ${numbers.map(each => `#${each}`).join(', ')}`,
    };
  }
  const edgeName = args.edgeName;
  // Only adopt and adoptTool read an edge name.
  if (typeof edgeName === 'string') {
    const edges = stringList(message.names);
    if (edges.includes(edgeName)) return undefined;
    return {
      about: aboutName(edgeName),
      text:
        edges.length === 0
          ? `message #${number} carries no values`
          : `message #${number} carries ${edges.length === 1 ? 'one value' : `${edges.length} values`}, under the edge name${edges.length === 1 ? '' : 's'} ${quoteNames(edges)}`,
    };
  }
  return undefined;
};

/**
 * The hints for a call that failed with `message`, looked up now: only
 * about a name or number the error names (an error about a missing
 * argument gets none), none when every name the call gave exists.
 */
const hintsFor = async (
  message: string,
  name: string,
  args: Args,
  grouped: GroupedCall | undefined,
  context: Pick<BuiltinContext, 'powers'>,
): Promise<string[]> => {
  const op = grouped?.op ?? name;
  const powers = E(context.powers) as unknown as Far;
  const hints: string[] = [];
  // The look-ups only help: one that fails adds nothing, and the error stands as it is.
  const quietly = (lookUp: Promise<Hint | undefined>) => lookUp.catch(() => undefined);
  const found = await Promise.all([
    nameRuleHint(message),
    quietly(messageHint(powers, args)),
    ...pathsNamed(grouped?.group ?? name, op, args).map(path => quietly(missingName(powers, path))),
  ]);
  for (const hint of found)
    if (hint !== undefined && hint.about.test(message) && !hints.includes(hint.text))
      hints.push(hint.text);
  return hints;
};

/** The error of a failed built-in call, with what would have been right. */
export const explainFailure = async (
  error: unknown,
  name: string,
  args: Args,
  grouped: GroupedCall | undefined,
  context: Pick<BuiltinContext, 'powers'>,
): Promise<Error> => {
  const base = error instanceof Error ? error : new Error(String(error));
  const hints = await hintsFor(base.message, name, args, grouped, context);
  if (hints.length === 0) return base;
  return new Error(`${base.message} (${hints.join('; ')})`, { cause: error });
};
harden(explainFailure);
