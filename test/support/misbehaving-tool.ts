/**
 * A FaeTool caplet for tests that misbehaves on request: env MODE=hang
 * never settles, MODE=flood returns 2,000,000 characters; its call name
 * comes from env TOOL_NAME.
 */
import { makeFaeTool } from '../../tools/lib/make-fae-tool.js';

export const make = (
  _powers: unknown,
  _context: unknown,
  { env = {} }: { env?: Record<string, string> } = {},
) =>
  makeFaeTool({
    name: env.TOOL_NAME ?? 'odd',
    description: 'A tool that misbehaves as its MODE says.',
    parameters: { type: 'object', properties: {} },
    help: 'Hangs or floods, for tests.',
    run: () => (env.MODE === 'hang' ? new Promise(() => {}) : 'z'.repeat(2_000_000)),
  });
