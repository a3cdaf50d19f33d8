/**
 * The built-in tools every persona offers: `reply` and `send`, `names`
 * (the pet-name directory, store and help) and `mail` (the inbox and
 * requests) with an `op` each (./tool-groups.ts), `evaluate` and `schedule`.
 * Each tool is defined once, here: its parameters are kinds
 * (./tool-parameters.ts) from which both the OpenAI-format schema the model
 * is offered and the check its arguments pass (./validate-arguments.ts)
 * are made, and each op of a group names the parameters it reads.
 */
import type { JsonSchema, ToolSchema } from '../../providers/types.js';
import { KINDS, type KindName } from './tool-parameters.js';

// What a pet-name path is, how message text and attachments are given, and
// how outcomes arrive are taught once, in the system prompt; descriptions here
// say only what a tool does, and parameters whose name says it go undescribed.
// Every token here is paid on every request (see the bench's first request).

interface Parameter<K extends KindName = KindName> {
  kind: K;
  /** Names the parameter is also read under (its names when ops were tools of their own). */
  aliases?: readonly string[];
}

/**
 * What a tool (or an op) reads, in order: parameter names, each followed by
 * `?` when it may be left out.
 */
export type Reads = readonly string[];

/**
 * The pet-name paths a call touches, each named by the parameter that holds
 * it: the policy judges each (src/policy/call-paths.ts, store-boundary.ts).
 */
interface Touches {
  /** Looked up, listed, identified or inspected. */
  reads?: readonly string[];
  /** Created, overwritten, moved from or onto, or removed. */
  writes?: readonly string[];
  /** Handed to someone: attached to a message, a request's answer, code's endowments, a helper's grant. */
  gives?: readonly string[];
  /** The parameter naming a tool the op itself puts in tools/, after its own checks (mail adoptTool). */
  adoptsTool?: string;
}

/** Whom a call's side effect is toward (src/policy/side-effects.ts): none, its own pet names, an adoption, a recipient or a message's sender. */
type EffectRecord =
  'none' | 'write' | 'adopt' | Readonly<{ toward: 'recipient' | 'message'; what: string }>;

/**
 * One op of a group, or one tool of its own: what it reads, how the group's
 * description names it, and which of its parameters name something that
 * must exist, so that a failed call's error can say what would have been
 * right (./explain-failure.ts); and, stated here once for the policy, which
 * paths it touches, what its result brings in that did not come from the
 * HOST, whom its side effect is toward, and which parties hold it. Each of
 * the last four is required: an op without them does not compile.
 */
export interface OpRecord {
  reads: Reads;
  /** The words after its name in the group's description (ops next to each other with the same words are named together). */
  words?: string;
  /** Parameters naming something that must already exist (a `paths` one: each of its paths). */
  existing?: readonly string[];
  /** Parameters whose last name is made: only the folder it goes in must exist. */
  made?: readonly string[];
  /** The pet-name paths it touches ({} for none). */
  touches: Touches;
  /** What its result brings into the turn that did not come from the HOST (behaviour 9.10); false for nothing. */
  brings: string | false;
  /** Whom its side effect is toward. */
  effect: EffectRecord;
  /**
   * Which parties' turns hold it (src/parties/facets.ts): `host` for an op that reaches what only
   * the HOST has (`adoptTool` writes in tools/), so another party's facet neither offers it, nor
   * grants it to a helper, nor runs it, by whatever name it is called.
   */
  heldBy: 'anyone' | 'host';
  /**
   * Whether a helper may be granted it (src/helpers/grant.ts): `granted`, or why never (its every
   * use reaches someone or something beyond the helper's task, which it hands back instead).
   */
  forHelper: 'granted' | { refused: string };
  /** `newest`: only the newest daemon has what it needs (messages' revisions), so the older one is not offered it. */
  daemon?: 'newest';
  /** What the turn's outcome notes once it ran (./call-marks.ts): the message it answered, a message sent, one dismissed. */
  marks?: 'answers' | 'sends' | 'dismisses';
}

/** A part of a group's description: its ops in the order it names them, each only while offered. */
interface OpSection {
  /** Words before the items (after "or " when a section is shown before it). */
  lead?: string;
  ops: readonly string[];
  join: string;
}

interface ToolBase {
  name: string;
  /** A tool's own words; a group's are made from its ops' words for the ops offered (describeOps). */
  description?: string;
  parameters: Readonly<Record<string, Parameter>>;
}

/** A tool of its own: its record is its own (the advertised `required` are the reads without `?`). */
interface SoleDefinition extends ToolBase, OpRecord {
  ops?: undefined;
  sections?: undefined;
}

/** A group: its ops (the `op` enum, in order), one record each, and how its description lays them out. */
interface GroupDefinition extends ToolBase {
  ops: Readonly<Record<string, OpRecord>>;
  sections: readonly OpSection[];
  reads?: undefined;
  existing?: undefined;
  made?: undefined;
}

export type BuiltinDefinition = SoleDefinition | GroupDefinition;

/**
 * A group's description naming only `offered` of its ops: the older daemon
 * has no messageHistory, and LAL_TOOLS_DENY takes ops away.
 */
export const describeOps = (
  ops: Readonly<Record<string, OpRecord>>,
  sections: readonly OpSection[],
  offered: readonly string[],
): string => {
  const shown = sections.flatMap(section => {
    const items: { names: string[]; words: string | undefined }[] = [];
    for (const op of section.ops.filter(name => offered.includes(name))) {
      const words = ops[op]?.words;
      const last = items.at(-1);
      if (last !== undefined && words !== undefined && last.words === words) last.names.push(op);
      else items.push({ names: [op], words });
    }
    const texts = items.map(({ names, words }) =>
      words === undefined ? names.join(' or ') : `${names.join(' or ')} ${words}`,
    );
    return texts.length === 0 ? [] : [{ lead: section.lead, text: texts.join(section.join) }];
  });
  const text = shown
    .map(({ lead, text: items }, index) =>
      lead === undefined ? items : `${index > 0 ? 'or ' : ''}${lead}${items}`,
    )
    .join('; ');
  return `${text}.`;
};
harden(describeOps);

const kind = <K extends KindName>(name: K, ...aliases: string[]): Parameter<K> =>
  aliases.length === 0 ? { kind: name } : { kind: name, aliases };

const PATH = 'path';

/** Why a helper is given no op that mails: it hands back its result instead. */
const MAILS_NO_ONE = { refused: 'a helper mails no one: it hands back its result' } as const;

/** The `names` group's ops, in the order of its `op` enum. */
const NAMES_OPS = {
  list: {
    reads: ['path?'],
    existing: [PATH],
    touches: { reads: [PATH] },
    brings: false,
    effect: 'none',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  has: {
    reads: [PATH],
    touches: { reads: [PATH] },
    brings: false,
    effect: 'none',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  lookup: {
    reads: [PATH],
    existing: [PATH],
    touches: { reads: [PATH] },
    brings: 'a value from the directory',
    effect: 'none',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  identify: {
    reads: [PATH],
    words: '(formula id)',
    touches: { reads: [PATH] },
    brings: false,
    effect: 'none',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  inspectCapability: {
    reads: [PATH],
    words: '(help, methods)',
    existing: [PATH],
    touches: { reads: [PATH] },
    brings: "a capability's own help",
    effect: 'none',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  remove: {
    reads: [PATH],
    existing: [PATH],
    touches: { writes: [PATH] },
    brings: false,
    effect: 'write',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  move: {
    reads: [PATH, 'to'],
    words: '(path to `to`)',
    existing: [PATH],
    made: ['to'],
    touches: { writes: [PATH, 'to'] },
    brings: false,
    effect: 'write',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  copy: {
    reads: [PATH, 'to'],
    words: '(path to `to`)',
    existing: [PATH],
    made: ['to'],
    touches: { reads: [PATH], writes: ['to'] },
    brings: false,
    effect: 'write',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  makeDirectory: {
    reads: [PATH],
    made: [PATH],
    touches: { writes: [PATH] },
    brings: false,
    effect: 'write',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  store: {
    reads: ['value', PATH],
    words: '(value as path)',
    made: [PATH],
    touches: { writes: [PATH] },
    brings: false,
    effect: 'write',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
  help: {
    reads: ['methodName?'],
    words: '(on your powers, or methodName)',
    touches: {},
    brings: false,
    effect: 'none',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
} as const satisfies Record<string, OpRecord>;

/** The `mail` group's ops, in the order of its `op` enum. */
const MAIL_OPS = {
  listMessages: {
    reads: [],
    touches: {},
    brings: "others' messages in the inbox",
    effect: 'none',
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
  },
  request: {
    reads: ['recipient', 'description', 'responseName?'],
    words: '(ask recipient for a value: description, kept as responseName)',
    existing: ['recipient'],
    touches: { writes: ['responseName'] },
    brings: false,
    effect: { toward: 'recipient', what: 'makes a request' },
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
  },
  dismiss: {
    reads: ['messageNumber'],
    touches: {},
    brings: false,
    effect: 'none',
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
    marks: 'dismisses',
  },
  adopt: {
    reads: ['messageNumber', 'petName', 'edgeName'],
    words: '(its value edgeName as petName)',
    made: ['petName'],
    touches: { writes: ['petName'] },
    brings: false,
    effect: 'adopt',
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
  },
  adoptTool: {
    reads: ['messageNumber', 'toolName', 'edgeName'],
    words: '(its tool edgeName into tools/ as toolName)',
    touches: { adoptsTool: 'toolName' },
    brings: false,
    effect: 'adopt',
    heldBy: 'host',
    forHelper: MAILS_NO_ONE,
  },
  resolve: {
    reads: ['messageNumber', PATH],
    words: '(its request, with the value at path)',
    existing: [PATH],
    touches: { gives: [PATH] },
    brings: false,
    effect: { toward: 'message', what: 'answers a request' },
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
    marks: 'answers',
  },
  reject: {
    reads: ['messageNumber', 'reason?'],
    words: '(with reason)',
    touches: {},
    brings: false,
    effect: { toward: 'message', what: 'answers a request' },
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
    marks: 'answers',
  },
  messageHistory: {
    reads: ['messageNumber'],
    touches: {},
    brings: "a message's history",
    effect: 'none',
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
    daemon: 'newest',
  },
  recall: {
    reads: ['query'],
    touches: {},
    brings: 'the kept history',
    effect: 'none',
    heldBy: 'anyone',
    forHelper: MAILS_NO_ONE,
  },
  helper: {
    reads: ['description', 'grant?'],
    words: '(a helper does description with grant)',
    touches: { gives: ['grant'] },
    brings: false,
    effect: 'none',
    heldBy: 'anyone',
    forHelper: 'granted',
  },
} as const satisfies Record<string, OpRecord>;
harden(MAIL_OPS);

type NamesOp = keyof typeof NAMES_OPS;
type MailOp = keyof typeof MAIL_OPS;

/**
 * A message's parts as `reply` and `send` both read them: its strings (sent exactly as written:
 * the system prompt says so of all text the model writes) and the values of pet names attached
 * under edge names, which it gives to whoever receives it.
 */
const MESSAGE_PARTS = {
  parameters: { strings: kind('names'), edgeNames: kind('names'), petNames: kind('paths') },
  reads: ['strings', 'edgeNames?', 'petNames?'],
  touches: { gives: ['petNames'] },
} as const;

const REPLY = {
  name: 'reply',
  description: 'Answer a message.',
  parameters: { messageNumber: kind('messageNumber'), ...MESSAGE_PARTS.parameters },
  reads: ['messageNumber', ...MESSAGE_PARTS.reads],
  existing: ['petNames'],
  touches: MESSAGE_PARTS.touches,
  brings: false,
  effect: { toward: 'message', what: 'replies' },
  heldBy: 'anyone',
  forHelper: MAILS_NO_ONE,
  marks: 'answers',
} as const satisfies SoleDefinition;

const SEND = {
  name: 'send',
  description: 'Send a message to a pet name (e.g. HOST).',
  parameters: { recipient: kind('text'), ...MESSAGE_PARTS.parameters },
  reads: ['recipient', ...MESSAGE_PARTS.reads],
  existing: ['recipient', 'petNames'],
  touches: MESSAGE_PARTS.touches,
  brings: false,
  effect: { toward: 'recipient', what: 'sends a message' },
  heldBy: 'anyone',
  forHelper: MAILS_NO_ONE,
  marks: 'sends',
} as const satisfies SoleDefinition;

const NAMES_PARAMETERS = {
  path: kind('path', 'petNamePath', 'fromPath', 'petName'),
  to: kind('path', 'toPath'),
  value: kind('value'),
  methodName: kind('text'),
} as const;

const MAIL_PARAMETERS = {
  messageNumber: kind('messageNumber'),
  recipient: kind('text'),
  description: kind('text'),
  responseName: kind('text'),
  edgeName: kind('text'),
  petName: kind('path', 'path'),
  toolName: kind('text'),
  path: kind('path', 'petNamePath'),
  reason: kind('text'),
  query: kind('text'),
  grant: kind('grant'),
} as const;

const EVALUATE = {
  name: 'evaluate',
  description:
    'Propose JavaScript to your host, with the values at petNamePaths as codeNames; the result is kept as resultName.',
  parameters: {
    source: kind('text'),
    codeNames: kind('names'),
    petNamePaths: kind('paths'),
    resultName: kind('text'),
    workerName: kind('text'),
  },
  reads: ['source', 'codeNames?', 'petNamePaths?', 'resultName', 'workerName?'],
  existing: ['petNamePaths'],
  touches: { gives: ['petNamePaths'], writes: ['resultName'] },
  brings: false,
  effect: 'none',
  heldBy: 'anyone',
  forHelper: { refused: 'a helper proposes no code to the host' },
} as const satisfies SoleDefinition;

const SCHEDULE = {
  name: 'schedule',
  description:
    'Be woken with a note in its own turn, then tell whoever asked: at an ISO 8601 time, after delaySeconds or every (a period, cron, heartbeat, trigger); cancel: an id.',
  parameters: {
    note: kind('text'),
    delaySeconds: kind('number'),
    at: kind('text'),
    every: kind('text'),
    cancel: kind('text'),
  },
  reads: ['note?', 'delaySeconds?', 'at?', 'every?', 'cancel?'],
  touches: {},
  brings: false,
  effect: 'none',
  heldBy: 'anyone',
  forHelper: { refused: 'a helper sets no schedules' },
} as const satisfies SoleDefinition;

export const BUILTIN_DEFINITIONS: readonly BuiltinDefinition[] = harden([
  REPLY,
  SEND,
  {
    name: 'names',
    sections: [
      {
        lead: 'Your pet names: ',
        join: ', ',
        ops: [
          'list',
          'has',
          'lookup',
          'identify',
          'inspectCapability',
          'remove',
          'move',
          'copy',
          'makeDirectory',
          'store',
        ] satisfies NamesOp[],
      },
      { join: ', ', ops: ['help'] satisfies NamesOp[] },
    ],
    parameters: NAMES_PARAMETERS,
    ops: NAMES_OPS,
  },
  {
    name: 'mail',
    sections: [
      { join: '; ', ops: ['listMessages', 'recall', 'request', 'helper'] satisfies MailOp[] },
      {
        lead: 'on message messageNumber: ',
        join: ', ',
        ops: [
          'dismiss',
          'adopt',
          'adoptTool',
          'resolve',
          'reject',
          'messageHistory',
        ] satisfies MailOp[],
      },
    ],
    parameters: MAIL_PARAMETERS,
    ops: MAIL_OPS,
  },
  EVALUATE,
  SCHEDULE,
]);
harden(BUILTIN_DEFINITIONS);

/** The value a kind's reader gives the tool (./tool-parameters.ts). */
type KindValue<K extends KindName> = ReturnType<(typeof KINDS)[K]['read']>;
/** Whether a kind left out stands for a value (`absent`), so the tool always gets one. */
type FilledWhenAbsent<K extends KindName> = (typeof KINDS)[K] extends { absent: unknown }
  ? true
  : false;
type RequiredNames<R extends Reads> = Exclude<R[number], `${string}?`>;
type OptionalNames<R extends Reads> = R[number] extends infer E
  ? E extends `${infer N}?`
    ? N
    : never
  : never;
type Params = Readonly<Record<string, Parameter>>;
/** One object type, as the compiler shows it (not an intersection of three). */
type Flat<T> = { [K in keyof T]: T[K] };
/** What the tool gets from a record's `reads` over its parameters: the type validateArguments makes. */
type ArgsOf<P extends Params, R extends Reads> = Flat<
  {
    readonly [N in RequiredNames<R> & keyof P as N]: KindValue<P[N]['kind']>;
  } & {
    readonly [
      N in OptionalNames<R> & keyof P as FilledWhenAbsent<P[N]['kind']> extends true ? N : never
    ]: KindValue<P[N]['kind']>;
  } & {
    readonly [
      N in OptionalNames<R> & keyof P as FilledWhenAbsent<P[N]['kind']> extends true ? never : N
    ]?: KindValue<P[N]['kind']>;
  }
>;

type SoleArgs<D extends { parameters: Params; reads: Reads }> = ArgsOf<D['parameters'], D['reads']>;

/** Each built-in op's arguments, as its one record yields them. */
type BuiltinArgsTable = {
  reply: SoleArgs<typeof REPLY>;
  send: SoleArgs<typeof SEND>;
  evaluate: SoleArgs<typeof EVALUATE>;
  schedule: SoleArgs<typeof SCHEDULE>;
} & { [O in NamesOp]: ArgsOf<typeof NAMES_PARAMETERS, (typeof NAMES_OPS)[O]['reads']> } & {
  [O in MailOp]: ArgsOf<typeof MAIL_PARAMETERS, (typeof MAIL_OPS)[O]['reads']>;
};

/** Every name a built-in call runs by: a tool of its own, or an op of a group. */
type BuiltinOp = keyof BuiltinArgsTable;

/** The arguments an op runs with, typed by its record (no casts where they are read). */
export type BuiltinArgs<O extends BuiltinOp> = BuiltinArgsTable[O];

/** A built-in call as it runs: its op and its arguments; switching on `op` types `values`. */
export type BuiltinCall = {
  [O in BuiltinOp]: { readonly op: O; readonly values: BuiltinArgs<O> };
}[BuiltinOp];

/** A parameter name of `reads` without its `?`, and whether it may be left out. */
export const readsEntry = (entry: string): { name: string; optional: boolean } =>
  entry.endsWith('?')
    ? { name: entry.slice(0, -1), optional: true }
    : { name: entry, optional: false };
harden(readsEntry);

const schemaOf = (definition: BuiltinDefinition): ToolSchema => {
  const properties: Record<string, JsonSchema> = {};
  if (definition.ops !== undefined) {
    properties.op = { type: 'string', enum: Object.keys(definition.ops) };
  }
  for (const [name, parameter] of Object.entries(definition.parameters)) {
    properties[name] = KINDS[parameter.kind].schema;
  }
  const required =
    definition.ops !== undefined
      ? ['op']
      : (definition.reads ?? [])
          .map(readsEntry)
          .flatMap(({ name, optional }) => (optional ? [] : [name]));
  return {
    type: 'function',
    function: {
      name: definition.name,
      description:
        definition.description ??
        describeOps(
          definition.ops ?? {},
          definition.sections ?? [],
          Object.keys(definition.ops ?? {}),
        ),
      parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    },
  };
};

export const BUILTIN_SCHEMAS: readonly ToolSchema[] = harden(BUILTIN_DEFINITIONS.map(schemaOf));
harden(BUILTIN_SCHEMAS);

/** The definition of a built-in tool by its name (a group's, for a group). */
export const builtinDefinition = (name: string): BuiltinDefinition | undefined =>
  BUILTIN_DEFINITIONS.find(definition => definition.name === name);
harden(builtinDefinition);

/** The record of a built-in call (its op's, for a group), or undefined for a tool that is no built-in. */
export const opRecord = (tool: string, op: string | undefined): OpRecord | undefined => {
  const definition = builtinDefinition(tool);
  if (definition?.ops === undefined) return definition;
  return op === undefined || !Object.hasOwn(definition.ops, op) ? undefined : definition.ops[op];
};
harden(opRecord);

/** The built-in tools' names, and the former names of grouped ops (still callable). */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(
  BUILTIN_DEFINITIONS.flatMap(definition => [
    definition.name,
    ...Object.keys(definition.ops ?? {}),
  ]),
);
harden(BUILTIN_NAMES);

/** The names a built-in call runs by (a tool of its own, or an op of a group) whose record `holds`. */
const namesWhose = (holds: (record: OpRecord) => boolean): ReadonlySet<string> =>
  harden(
    new Set(
      BUILTIN_DEFINITIONS.flatMap(definition =>
        definition.ops === undefined
          ? holds(definition)
            ? [definition.name]
            : []
          : Object.entries(definition.ops).flatMap(([op, record]) => (holds(record) ? [op] : [])),
      ),
    ),
  );

/** The built-ins only the HOST's turns hold, as their records say (`heldBy`): what another party's facet takes away (src/parties/facets.ts). */
export const HOST_ONLY_NAMES: ReadonlySet<string> = namesWhose(record => record.heldBy === 'host');
harden(HOST_ONLY_NAMES);

/** The built-ins only the newest daemon has what they need for, as their records say (`daemon`: src/prompt/speak-generation.ts). */
export const NEWEST_DAEMON_NAMES: ReadonlySet<string> = namesWhose(
  record => record.daemon === 'newest',
);
harden(NEWEST_DAEMON_NAMES);

/** Why a helper is never granted a built-in, as its records say: its own, its op's, or for a group the first of its ops it may not have. */
export const helperRefusal = (name: string): string | undefined => {
  const refusalOf = (record: OpRecord) =>
    record.forHelper === 'granted' ? undefined : record.forHelper.refused;
  for (const definition of BUILTIN_DEFINITIONS) {
    if (definition.ops === undefined) {
      if (definition.name === name) return refusalOf(definition);
    } else if (definition.name === name) {
      return Object.values(definition.ops)
        .map(refusalOf)
        .find(why => why !== undefined);
    } else if (Object.hasOwn(definition.ops, name)) return refusalOf(definition.ops[name]!);
  }
  return undefined;
};
harden(helperRefusal);
