/**
 * A tool source caplet for tests (src/agent-tools/tool-sources.ts): `listTools()`
 * answers the FaeTools `sourceControl.names` names (a name with a space is
 * one whose schema the agent must refuse), or fails while
 * `sourceControl.failing` is set. The test changes `sourceControl` between
 * turns, as an MCP server changes its list. Made with `env: { KIND: 'neither' }`
 * it is neither a tool nor a source (no `schema()`, no `listTools()`).
 */
import { Far } from '@endo/far';
import { makeFaeTool } from '../../tools/lib/make-fae-tool.js';

let waiters: { count: number; wake: () => void }[] = [];

export const sourceControl = {
  names: ['alpha', 'beta'],
  failing: false,
  /** What listTools() says while failing (an MCP server's own words reach the agent this way). */
  failure: 'the source is down',
  /** How many times listTools() was asked. */
  calls: 0,
  /** Resolves once listTools() has been asked `count` times in all. */
  untilCalls: (count: number) =>
    new Promise<void>(resolve => {
      if (sourceControl.calls >= count) resolve();
      else waiters.push({ count, wake: resolve });
    }),
};

const counted = () => {
  sourceControl.calls += 1;
  const ready = waiters.filter(waiter => sourceControl.calls >= waiter.count);
  waiters = waiters.filter(waiter => sourceControl.calls < waiter.count);
  for (const waiter of ready) waiter.wake();
};

const makeTool = (name: string) =>
  name.includes(' ')
    ? Far('BadSchemaTool', {
        schema: () => harden({ type: 'function', function: { name, parameters: {} } }),
        execute: async () => 'never',
        help: () => 'a tool whose name no model API accepts',
      })
    : makeFaeTool({
        name,
        description: `The ${name} tool.`,
        parameters: { type: 'object', properties: {} },
        help: `${name}()`,
        run: () => `${name} ran`,
      });

export const make = (
  _powers: unknown,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  if (options.env?.KIND === 'neither')
    return Far('NeitherToolNorSource', { help: () => 'Not a tool.' });
  const made = new Map<string, unknown>();
  return Far('ToolSource', {
    listTools: async () => {
      counted();
      if (sourceControl.failing) throw Error(sourceControl.failure);
      return harden(
        sourceControl.names.map(name => {
          if (!made.has(name)) made.set(name, makeTool(name));
          return made.get(name);
        }),
      );
    },
    help: () => 'A tool source for tests.',
  });
};
