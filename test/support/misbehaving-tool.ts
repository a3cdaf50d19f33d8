/**
 * A FaeTool caplet for tests that misbehaves on request: env MODE=hang
 * never settles, MODE=flood returns 2,000,000 characters, MODE=hang-if-told
 * never settles when called with `hang: true` and answers "done" otherwise;
 * its call name comes from env TOOL_NAME.
 */
import { makeFaeTool } from '../../tools/lib/make-fae-tool.js';

const never = () => new Promise(() => {});

export const make = (
  _powers: unknown,
  _context: unknown,
  { env = {} }: { env?: Record<string, string> } = {},
) =>
  env.MODE === 'hang-if-told'
    ? makeFaeTool({
        name: env.TOOL_NAME ?? 'odd',
        description: 'A tool that never answers when told to hang.',
        parameters: { type: 'object', properties: { hang: { type: 'boolean' } } },
        help: 'Hangs when told to, for tests.',
        run: args => (args.hang === true ? never() : 'done'),
      })
    : makeFaeTool({
        name: env.TOOL_NAME ?? 'odd',
        description: 'A tool that misbehaves as its MODE says.',
        parameters: { type: 'object', properties: {} },
        help: 'Hangs or floods, for tests.',
        run: () => (env.MODE === 'hang' ? never() : 'z'.repeat(2_000_000)),
      });
