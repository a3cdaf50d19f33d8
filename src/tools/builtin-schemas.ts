/**
 * The built-in tools every persona offers: `reply` and `send`, `names`
 * (the pet-name directory, store and help) and `mail` (the inbox and
 * requests) with an `op` each (./tool-groups.ts), `evaluate` and `schedule`.
 * OpenAI-format schemas; each op's arguments are checked in ./groups/.
 */
import type { JsonSchema, ToolSchema } from '../../providers/types.js';
import { OP_ALIASES, TOOL_GROUPS } from './tool-groups.js';

// What a pet-name path is, how message text and attachments are given, and
// how outcomes arrive are taught once, in the system prompt; descriptions here
// say only what a tool does, and parameters whose name says it go undescribed.
// Every token here is paid on every request (see the bench's first request).
// A pet-name path is written "dir/name" (readPath also takes an array of names).
const path: JsonSchema = { type: 'string' };
const text: JsonSchema = { type: 'string' };
const names: JsonSchema = { type: 'array', items: { type: 'string' } };
const messageNumber: JsonSchema = { type: 'integer' };

const tool = (
  name: string,
  description: string,
  properties: Record<string, JsonSchema> = {},
  required: string[] = [],
): ToolSchema => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  },
});

const op = (group: string): JsonSchema => ({
  type: 'string',
  enum: [...(TOOL_GROUPS[group] ?? [])],
});

export const BUILTIN_SCHEMAS: readonly ToolSchema[] = harden([
  tool(
    'reply',
    'Answer a message (its other party gets it).',
    { messageNumber, strings: names, edgeNames: names, petNames: names },
    ['messageNumber', 'strings'],
  ),
  tool(
    'send',
    'Send a message to a pet name (e.g. HOST).',
    { recipient: text, strings: names, edgeNames: names, petNames: names },
    ['recipient', 'strings'],
  ),
  tool(
    'names',
    'Your pet names: list (path optional), has, lookup, identify (formula id), inspectCapability (help, methods), remove, move or copy (path to `to`), makeDirectory, store (value as path); help (on your powers, or methodName).',
    {
      op: op('names'),
      path,
      to: path,
      value: { description: 'Read as SmallCaps: "+5" is the bigint 5, "!+5" the text +5.' },
      methodName: text,
    },
    ['op'],
  ),
  tool(
    'mail',
    'listMessages; recall (query words); request (ask recipient for a value: description, kept as responseName); or on message messageNumber: dismiss, adopt (its value edgeName as petName), adoptTool (its tool edgeName into tools/ as toolName; callable from your next step), resolve (its request, with the value at path), reject (with reason), messageHistory.',
    {
      op: op('mail'),
      messageNumber,
      recipient: text,
      description: text,
      responseName: text,
      edgeName: text,
      petName: path,
      toolName: text,
      path,
      reason: text,
      query: text,
    },
    ['op'],
  ),
  tool(
    'evaluate',
    'Propose JavaScript to your host, with the values at petNamePaths as codeNames; the result is kept as resultName. workerName: an existing worker.',
    { source: text, codeNames: names, petNamePaths: names, resultName: text, workerName: text },
    ['source', 'resultName'],
  ),
  tool(
    'schedule',
    'Be woken with a note in a turn of its own (then tell whoever asked): at an ISO 8601 time or after delaySeconds; or cancel a wake-up by id.',
    { note: text, delaySeconds: { type: 'number' }, at: text, cancel: text },
  ),
]);

/** The built-in tools' names, and the former names of grouped ops (still callable). */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set([
  ...BUILTIN_SCHEMAS.map(schema => schema.function.name),
  ...OP_ALIASES,
]);
