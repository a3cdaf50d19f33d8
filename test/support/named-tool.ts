/**
 * A FaeTool caplet for tests whose call name comes from env TOOL_NAME; it
 * echoes its arguments. Lets a test make many distinct tools.
 */
import { makeExo } from '@endo/exo';
import { FaeToolInterface } from '../../src/fae-tool.js';

export const make = (_powers: unknown, _context: unknown, { env = {} }: { env?: Record<string, string> } = {}) => {
  const name = env.TOOL_NAME ?? 'echo';
  return makeExo(name, FaeToolInterface, {
    schema: () =>
      harden({
        type: 'function' as const,
        function: { name, description: `Echo tool ${name}`, parameters: { type: 'object', properties: { text: { type: 'string' } } } },
      }),
    execute: async (args: Record<string, unknown>) => {
      // MODE lets a test make a tool that hangs or floods.
      if (env.MODE === 'hang') return new Promise(() => {});
      if (env.MODE === 'flood') return 'z'.repeat(2_000_000);
      return harden({ tool: name, echoed: args });
    },
    help: () => `Echoes its arguments (${name}).`,
  });
};
