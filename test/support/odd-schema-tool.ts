/**
 * A FaeTool caplet for tests whose schema() misbehaves as env SCHEMA says:
 * `bigint` (a bigint inside the schema), `throws`, `hang` (never answers),
 * `huge` (a 1 MB description), `no-object` (parameters of type string),
 * `loose` (plain JSON that services reject), or `ok`. Its call name comes from env TOOL_NAME.
 * Unguarded (a Far object), so it can answer what a real FaeTool must not.
 */
import { Far } from '@endo/far';

const schemaFor = (mode: string | undefined, name: string): unknown => {
  const fn = (parameters: unknown, description = 'A tool with an odd schema.') => ({
    type: 'function',
    function: { name, description, parameters },
  });
  switch (mode) {
    case 'bigint':
      return fn({ type: 'object', properties: { n: { type: 'integer', maximum: 10n } } });
    case 'throws':
      throw Error('schema exploded');
    case 'hang':
      return new Promise(() => {});
    case 'huge':
      return fn({ type: 'object', properties: {} }, 'x'.repeat(1_000_000));
    case 'no-object':
      return fn({ type: 'string' });
    case 'loose':
      // Plain JSON, but not what every service takes: no top-level type, a top-level anyOf, a required
      // list naming what is not declared, a number as a description, a type that is no type name.
      return fn({
        $schema: 'http://json-schema.org/draft-07/schema#',
        properties: {
          text: { type: 'string', description: 5 },
          count: { type: 'int' },
          flag: true,
        },
        required: ['text', 'missing', 7],
        anyOf: [{ required: ['text'] }],
        additionalProperties: false,
      });
    default:
      return fn({ type: 'object', properties: { text: { type: 'string' } } });
  }
};

export const make = (
  _powers: unknown,
  _context: unknown,
  { env = {} }: { env?: Record<string, string> } = {},
) => {
  const name = env.TOOL_NAME ?? 'odd';
  return Far('FaeTool', {
    schema: () => schemaFor(env.SCHEMA, name),
    execute: (args: Record<string, unknown>) => `ran ${name} with ${JSON.stringify(args)}`,
    help: () => 'A tool whose schema misbehaves, for tests.',
  });
};
