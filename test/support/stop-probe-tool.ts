/**
 * A FaeTool caplet for the tests of stopping a call (behaviour 6.7), shaped as env MODE says:
 * `upstream` is guarded as upstream Endo's FaeTools are (`execute` with one record, nothing
 * else: a second argument is refused by its guard); `report` answers which method ran; `throw`
 * and `hang` make `executeUntil` fail or never answer. The stoppable ones write why they were
 * stopped, once `stopped` settles, to `<PROBE_DIR>/stopped.txt`. Its call name is TOOL_NAME.
 */
import { makeExo } from '@endo/exo';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FaeToolInterface, StoppableFaeToolInterface } from '../../src/agent-tools/fae-tool.js';

export const make = (
  _powers: unknown,
  _context: unknown,
  { env = {} }: { env?: Record<string, string> } = {},
) => {
  const name = env.TOOL_NAME ?? 'probe';
  const schema = harden({
    type: 'function',
    function: {
      name,
      description: `A probe shaped ${env.MODE ?? 'report'}.`,
      parameters: { type: 'object', properties: {} },
    },
  });
  const help = () => 'A probe for tests.';
  if (env.MODE === 'upstream')
    return makeExo(name, FaeToolInterface, {
      schema: () => schema,
      execute: async (...given: unknown[]) => `execute, given ${given.length} argument(s)`,
      help,
    });
  const note = (why: unknown) => {
    if (env.PROBE_DIR !== undefined)
      writeFileSync(join(env.PROBE_DIR, 'stopped.txt'), String(why), 'utf8');
  };
  return makeExo(name, StoppableFaeToolInterface, {
    schema: () => schema,
    execute: async () => 'execute',
    executeUntil: async (_args: Record<string, unknown>, stopped: Promise<unknown>) => {
      void stopped.then(note, note);
      if (env.MODE === 'throw') throw Error('executeUntil failed on purpose');
      if (env.MODE === 'hang') return new Promise(() => {});
      return 'executeUntil';
    },
    help,
  });
};
harden(make);
