/**
 * A FaeTool caplet for the benchmark whose call name comes from env
 * TOOL_NAME; it echoes its arguments. Lets the bench fill tools/ with many
 * distinct tools (test/ is not built, so the bench has its own).
 */
import { makeExo } from '@endo/exo';
import { FaeToolInterface } from '../src/fae-tool.js';

export const make = (_powers: unknown, _context: unknown, { env = {} }: { env?: Record<string, string> } = {}) => {
  const name = env.TOOL_NAME ?? 'echo';
  return makeExo(name, FaeToolInterface, {
    schema: () =>
      harden({
        type: 'function' as const,
        function: {
          name,
          description: `Echoes its arguments (bench tool ${name}).`,
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      }),
    execute: async (args: Record<string, unknown>) => harden({ tool: name, echoed: args }),
    help: () => `Echoes its arguments (${name}).`,
  });
};
