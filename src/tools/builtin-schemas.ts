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

interface Parameter {
  kind: KindName;
  /** Names the parameter is also read under (its names when ops were tools of their own). */
  aliases?: readonly string[];
}

/**
 * What a tool (or an op) reads, in order: parameter names, each followed by
 * `?` when it may be left out.
 */
export type Reads = readonly string[];

/** Ops described together: their names joined by "or", then the words they share. */
type OpItem = readonly [ops: readonly string[], words?: string];

/** A part of a group's description: its items, each shown only while one of its ops is offered. */
interface OpSection {
  /** Words before the items (after "or " when a section is shown before it). */
  lead?: string;
  items: readonly OpItem[];
  join: string;
}

export interface BuiltinDefinition {
  name: string;
  /** A tool's own words; a group's are made from `sections` for the ops offered (describeOps). */
  description?: string;
  parameters: Readonly<Record<string, Parameter>>;
  /** A tool of its own: what it reads (the advertised `required` are those without `?`). */
  reads?: Reads;
  /** A group: its ops (the `op` enum, in order) and what each reads. */
  ops?: Readonly<Record<string, Reads>>;
  /** A group: how its description names each op, so that it names only the ops offered. */
  sections?: readonly OpSection[];
}

/**
 * A group's description naming only `offered` of its ops: the older daemon
 * has no messageHistory, and LAL_TOOLS_DENY takes ops away.
 */
export const describeOps = (sections: readonly OpSection[], offered: readonly string[]): string => {
  const shown = sections.flatMap(section => {
    const items = section.items.flatMap(([ops, words]) => {
      const names = ops.filter(op => offered.includes(op));
      if (names.length === 0) return [];
      return [words === undefined ? names.join(' or ') : `${names.join(' or ')} ${words}`];
    });
    return items.length === 0 ? [] : [{ lead: section.lead, text: items.join(section.join) }];
  });
  const text = shown
    .map(({ lead, text: items }, index) =>
      lead === undefined ? items : `${index > 0 ? 'or ' : ''}${lead}${items}`,
    )
    .join('; ');
  return `${text}.`;
};
harden(describeOps);

const kind = (name: KindName, ...aliases: string[]): Parameter =>
  aliases.length === 0 ? { kind: name } : { kind: name, aliases };

const PATH = 'path';
const pathOps = (...ops: string[]) => Object.fromEntries(ops.map(op => [op, [PATH]]));

export const BUILTIN_DEFINITIONS: readonly BuiltinDefinition[] = harden([
  {
    name: 'reply',
    description: 'Answer a message.',
    parameters: {
      messageNumber: kind('messageNumber'),
      strings: kind('names'),
      edgeNames: kind('names'),
      petNames: kind('paths'),
    },
    reads: ['messageNumber', 'strings', 'edgeNames?', 'petNames?'],
  },
  {
    name: 'send',
    description: 'Send a message to a pet name (e.g. HOST).',
    parameters: {
      recipient: kind('text'),
      // Sent exactly as written: the system prompt says so of all text the model writes.
      strings: kind('names'),
      edgeNames: kind('names'),
      petNames: kind('paths'),
    },
    reads: ['recipient', 'strings', 'edgeNames?', 'petNames?'],
  },
  {
    name: 'names',
    sections: [
      {
        lead: 'Your pet names: ',
        join: ', ',
        items: [
          [['list']],
          [['has']],
          [['lookup']],
          [['identify'], '(formula id)'],
          [['inspectCapability'], '(help, methods)'],
          [['remove']],
          [['move', 'copy'], '(path to `to`)'],
          [['makeDirectory']],
          [['store'], '(value as path)'],
        ],
      },
      { join: ', ', items: [[['help'], '(on your powers, or methodName)']] },
    ],
    parameters: {
      path: kind('path', 'petNamePath', 'fromPath', 'petName'),
      to: kind('path', 'toPath'),
      value: kind('value'),
      methodName: kind('text'),
    },
    ops: {
      list: ['path?'],
      ...pathOps('has', 'lookup', 'identify', 'inspectCapability', 'remove'),
      move: [PATH, 'to'],
      copy: [PATH, 'to'],
      makeDirectory: [PATH],
      store: ['value', PATH],
      help: ['methodName?'],
    },
  },
  {
    name: 'mail',
    sections: [
      {
        join: '; ',
        items: [
          [['listMessages']],
          [['recall']],
          [['request'], '(ask recipient for a value: description, kept as responseName)'],
          [['helper'], '(a helper does description with grant)'],
        ],
      },
      {
        lead: 'on message messageNumber: ',
        join: ', ',
        items: [
          [['dismiss']],
          [['adopt'], '(its value edgeName as petName)'],
          [['adoptTool'], '(its tool edgeName into tools/ as toolName)'],
          [['resolve'], '(its request, with the value at path)'],
          [['reject'], '(with reason)'],
          [['messageHistory']],
        ],
      },
    ],
    parameters: {
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
      grant: kind('names'),
    },
    ops: {
      listMessages: [],
      request: ['recipient', 'description', 'responseName?'],
      dismiss: ['messageNumber'],
      adopt: ['messageNumber', 'petName', 'edgeName'],
      adoptTool: ['messageNumber', 'toolName', 'edgeName'],
      resolve: ['messageNumber', PATH],
      reject: ['messageNumber', 'reason?'],
      messageHistory: ['messageNumber'],
      recall: ['query'],
      helper: ['description', 'grant?'],
    },
  },
  {
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
  },
  {
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
  },
]);
harden(BUILTIN_DEFINITIONS);

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
        describeOps(definition.sections ?? [], Object.keys(definition.ops ?? {})),
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

/** The built-in tools' names, and the former names of grouped ops (still callable). */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(
  BUILTIN_DEFINITIONS.flatMap(definition => [
    definition.name,
    ...Object.keys(definition.ops ?? {}),
  ]),
);
harden(BUILTIN_NAMES);
