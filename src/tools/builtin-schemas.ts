/**
 * The built-in tools every persona offers: Lal's static set over the guest
 * powers, plus Fae's `store` and `adoptTool`. OpenAI-format schemas; the
 * required lists are what `dispatch-builtin-tool.ts` checks.
 */
import type { JsonSchema, ToolSchema } from '../../providers/types.js';

// What a pet-name path is (["tools", "math"], or one name as a string) is taught once, in the system prompt.
const path = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });
const text = (description: string): JsonSchema => ({ type: 'string', description });
const names = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });
const messageNumber: JsonSchema = { type: 'integer', description: 'The message number (5, or "+5").' };
const strings: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  description:
    'The text in parts, sent exactly as written: one string before each attached value and one after the last (with no values, one string).',
};

const tool = (
  name: string,
  description: string,
  properties: Record<string, JsonSchema> = {},
  required: string[] = [],
): ToolSchema => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties, required } },
});

export const BUILTIN_SCHEMAS: readonly ToolSchema[] = harden([
  tool('help', 'Read the documentation of your powers, or of one method.', {
    methodName: text('A method to explain; leave out for an overview.'),
  }),
  tool('has', 'Tell whether a pet name (or path) exists in your directory.', { petNamePath: path('The name.') }, ['petNamePath']),
  tool('list', 'List the names in your directory, or in a sub-directory.', { petNamePath: path('The directory; leave out for the top.') }),
  tool('lookup', 'Get the value a pet name refers to.', { petNamePath: path('The name.') }, ['petNamePath']),
  tool('remove', 'Forget a pet name.', { petNamePath: path('The name.') }, ['petNamePath']),
  tool('move', 'Rename: move a value from one pet name to another.', { fromPath: path('The current name.'), toPath: path('The new name.') }, ['fromPath', 'toPath']),
  tool('copy', 'Give a value a second pet name.', { fromPath: path('The existing name.'), toPath: path('The new name.') }, ['fromPath', 'toPath']),
  tool('makeDirectory', 'Make a new, empty directory under a name that is not in use yet.', { petNamePath: path('The new name.') }, ['petNamePath']),
  tool('listMessages', 'List the messages in your inbox that are not dismissed yet.'),
  tool(
    'send',
    'Send a message to a pet name (HOST, or any name you have for someone). Values you attach are passed by pet name.',
    {
      recipient: text('Who to send to: a pet name such as HOST.'),
      strings,
      edgeNames: names('For each attached value, the name the recipient will see it under. Leave out when attaching nothing.'),
      petNames: names('For each attached value, your pet name (or path "dir/name") for it. Leave out when attaching nothing.'),
    },
    ['recipient', 'strings'],
  ),
  tool(
    'reply',
    'Answer a message: the reply goes to the other party of that message, linked to it.',
    {
      messageNumber,
      strings,
      edgeNames: names('For each attached value, the name the recipient will see it under. Leave out when attaching nothing.'),
      petNames: names('For each attached value, your pet name for it. Leave out when attaching nothing.'),
    },
    ['messageNumber', 'strings'],
  ),
  tool(
    'adopt',
    'Keep a value attached to a message under a pet name of yours.',
    { messageNumber, edgeName: text('The name the value has in the message.'), petName: path('Your name for it.') },
    ['messageNumber', 'edgeName', 'petName'],
  ),
  tool('dismiss', 'Remove a message you are done with from your inbox.', { messageNumber }, ['messageNumber']),
  tool(
    'request',
    'Ask someone for a value. Returns at once; their answer comes later as an ANSWERED or DECLINED notice.',
    {
      recipient: text('Who to ask: a pet name such as HOST.'),
      description: text('What you are asking for.'),
      responseName: text('The pet name to keep the answer under.'),
    },
    ['recipient', 'description'],
  ),
  tool('resolve', 'Answer a request message with one of your values.', { messageNumber, petNamePath: path('The value to give.') }, ['messageNumber', 'petNamePath']),
  tool('reject', 'Decline a request message.', { messageNumber, reason: text('Why, in a few words.') }, ['messageNumber']),
  tool('identify', 'Get the formula id a pet name refers to.', { petNamePath: path('The name.') }, ['petNamePath']),
  tool('inspectCapability', 'Read the help of a capability and list its methods.', { petNamePath: path('The capability.') }, ['petNamePath']),
  tool(
    'evaluate',
    'Propose JavaScript to your host. It runs only if the host grants it; you get the outcome later as a notice (GRANTED or REJECTED).',
    {
      source: text('The JavaScript expression or program; its completion value is the result.'),
      codeNames: names('The names the code uses for the values it needs, one per petNamePath.'),
      petNamePaths: { type: 'array', items: { type: 'array', items: { type: 'string' } }, description: 'Your pet-name path for each code name, in the same order.' },
      resultName: text('The pet name to keep the result under.'),
      workerName: text('A worker to run in; leave out for a new one.'),
    },
    ['source', 'resultName'],
  ),
  // Offered on the newest daemon only (daemon/speak-generation.ts), where messages have revisions.
  tool('messageHistory', 'Read every revision of a message (its sender may have edited it), oldest first.', { messageNumber }, ['messageNumber']),
  tool('store', 'Keep a JSON value under a pet name.', { value: { description: 'Any JSON value. Its strings are read as SmallCaps: "+5" is the bigint 5, "#undefined" is undefined, "!+5" is the text "+5".' }, petName: path('The name to keep it under.') }, ['value', 'petName']),
  tool(
    'adoptTool',
    'Adopt a tool attached to a message into tools/ so you can call it (by the name its schema declares) from your next step on.',
    { messageNumber, edgeName: text('The name the tool has in the message.'), toolName: text('The name to keep it under in tools/.') },
    ['messageNumber', 'edgeName', 'toolName'],
  ),
  tool(
    'schedule',
    'Ask to be woken later with a note (e.g. a reminder): at a time or after a delay. The wake-up starts a turn of its own with your note, and you then tell the sender of the message you are serving now. Or cancel a pending wake-up by its id.',
    {
      note: text('What to do when woken, e.g. "remind HOST to check the build".'),
      delaySeconds: { type: 'number', description: 'Wake after this many seconds (give this or at).' },
      at: text('Wake at this ISO 8601 time, e.g. 2026-05-01T09:00:00Z (give this or delaySeconds).'),
      cancel: text('The id of a pending wake-up to cancel instead (e.g. "w1"); then nothing else is needed.'),
    },
  ),
]);

export const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTIN_SCHEMAS.map(schema => schema.function.name));
