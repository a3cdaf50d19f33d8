/**
 * The built-in tools every persona offers: Lal's static set over the guest
 * powers, plus Fae's `store` and `adoptTool`. OpenAI-format schemas; the
 * required lists are what `dispatch-builtin-tool.ts` checks.
 */
import type { JsonSchema, ToolSchema } from '../../providers/types.js';

// What a pet-name path is, how message text and attachments are given, and
// how outcomes arrive are taught once, in the system prompt; descriptions here
// say only what a tool does, and parameters whose name says it go undescribed.
// Every token here is paid on every request (see the bench's first request).
// A pet-name path is written "dir/name" (readPath also takes an array of names).
const path: JsonSchema = { type: 'string' };
const text: JsonSchema = { type: 'string' };
const described = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
const names: JsonSchema = { type: 'array', items: { type: 'string' } };
const messageNumber: JsonSchema = { type: 'integer' };
const strings: JsonSchema = { ...names, description: 'Sent exactly as written.' };

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

export const BUILTIN_SCHEMAS: readonly ToolSchema[] = harden([
  tool('help', 'Documentation of your powers, or of one method.', { methodName: text }),
  tool('has', 'Whether a pet-name path exists.', { petNamePath: path }),
  tool('list', 'Names in your directory, or in a sub-directory.', { petNamePath: path }),
  tool('lookup', 'The value at a pet-name path.', { petNamePath: path }),
  tool('remove', 'Forget a pet name.', { petNamePath: path }),
  tool('move', 'Rename a pet name.', { fromPath: path, toPath: path }, ['fromPath', 'toPath']),
  tool('copy', 'Give a value a second pet name.', { fromPath: path, toPath: path }, ['fromPath', 'toPath']),
  tool('makeDirectory', 'Make an empty directory under a new pet name.', { petNamePath: path }),
  tool('listMessages', 'Your messages not yet dismissed.'),
  tool('send', 'Send a message to a pet name (e.g. HOST).', { recipient: text, strings, edgeNames: names, petNames: names }, ['recipient', 'strings']),
  tool('reply', 'Answer a message (its other party gets it).', { messageNumber, strings, edgeNames: names, petNames: names }, ['messageNumber', 'strings']),
  tool('adopt', 'Keep a value attached to a message under your pet name.', { messageNumber, edgeName: text, petName: path }, ['messageNumber', 'edgeName', 'petName']),
  tool('dismiss', 'Remove a message from your inbox.', { messageNumber }),
  tool('request', 'Ask someone for a value, kept under responseName when it comes.', { recipient: text, description: text, responseName: text }, ['recipient', 'description']),
  tool('resolve', 'Answer a request message with one of your values.', { messageNumber, petNamePath: path }, ['messageNumber', 'petNamePath']),
  tool('reject', 'Decline a request message.', { messageNumber, reason: text }, ['messageNumber']),
  tool('identify', 'The formula id of a pet name.', { petNamePath: path }),
  tool('inspectCapability', "A capability's help and methods.", { petNamePath: path }),
  tool(
    'evaluate',
    'Propose JavaScript to your host; the values at petNamePaths are in scope as codeNames, the result is kept under resultName.',
    {
      source: text,
      codeNames: names,
      petNamePaths: names,
      resultName: text,
      workerName: described(text, 'Leave out for a new worker.'),
    },
    ['source', 'resultName'],
  ),
  // Offered on the newest daemon only (daemon/speak-generation.ts), where messages have revisions.
  tool('messageHistory', 'Read every revision of a message (its sender may have edited it), oldest first.', { messageNumber }, ['messageNumber']),
  tool('store', 'Keep a JSON value under a pet name.', { value: { description: 'Read as SmallCaps: "+5" is the bigint 5, "!+5" the text +5.' }, petName: path }, ['value', 'petName']),
  tool(
    'adoptTool',
    'Adopt a tool attached to a message into tools/ under toolName; call it by its schema name from your next step on.',
    { messageNumber, edgeName: text, toolName: text },
    ['messageNumber', 'edgeName', 'toolName'],
  ),
  tool(
    'schedule',
    'Ask to be woken later with a note (e.g. a reminder): at a time or after a delay. The wake-up starts a turn of its own with your note, and you then tell the sender of the message you are serving now. Or cancel a pending wake-up by its id.',
    {
      note: described(text, 'What to do when woken.'),
      delaySeconds: { type: 'number', description: 'Wake after this many seconds (or give at).' },
      at: described(text, 'Wake at this ISO 8601 time.'),
      cancel: described(text, 'The id of a pending wake-up to cancel instead (e.g. "w1").'),
    },
  ),
]);

export const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTIN_SCHEMAS.map(schema => schema.function.name));
