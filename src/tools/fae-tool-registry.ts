/**
 * Fae's dynamic tools: the FaeTools in the guest's `tools/` directory.
 * `refresh` first asks for the directory's formula ids (`listIdentifiers`,
 * one round trip): when they are the ones already known, nothing else is
 * asked. Otherwise it lists the directory and identifies each entry
 * concurrently, and reads a schema only for an id it has not seen.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import type { FaeTool } from '../fae-tool.js';
import type { ToolSchema } from '../../providers/types.js';
import type { Log } from '../log.js';

export const TOOLS_DIRECTORY = 'tools';
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export interface DynamicTool {
  /** The name the model calls it by (from its schema). */
  name: string;
  /** Its pet name in tools/. */
  petName: string;
  schema: ToolSchema;
  tool: FaeTool;
}

interface Known {
  id: string;
  entry: DynamicTool | undefined;
}

export interface ToolRegistry {
  /** Brings the offered tools up to date; `force` also re-reads the names (after a rename). */
  refresh(options?: { force?: boolean }): Promise<void>;
  schemas(): ToolSchema[];
  find(name: string): DynamicTool | undefined;
}

/** Checks that a value read from `schema()` is a usable OpenAI-format tool schema. */
export const validToolSchema = (schema: unknown): schema is ToolSchema => {
  if (schema === null || typeof schema !== 'object') return false;
  const fn = (schema as { function?: unknown }).function;
  if (fn === null || typeof fn !== 'object') return false;
  const { name, parameters } = fn as { name?: unknown; parameters?: unknown };
  return typeof name === 'string' && TOOL_NAME.test(name) && (parameters === undefined || typeof parameters === 'object');
};

/** Normalises a tool's schema to what the providers expect. */
const normalise = (schema: ToolSchema): ToolSchema => ({
  type: 'function',
  function: {
    name: schema.function.name,
    description: typeof schema.function.description === 'string' ? schema.function.description : '',
    parameters: schema.function.parameters ?? { type: 'object', properties: {} },
  },
});

export const makeToolRegistry = (options: {
  powers: PowersRef;
  log: Log;
  builtinNames: ReadonlySet<string>;
}): ToolRegistry => {
  const { powers, log, builtinNames } = options;
  // Pet name → what we know of the entry under it.
  let known = new Map<string, Known>();
  let byName = new Map<string, DynamicTool>();
  // The sorted formula ids of tools/ when last read in full.
  let knownIds: string | undefined;

  const load = async (petName: string, id: string): Promise<Known> => {
    try {
      const tool = (await E(powers).lookup([TOOLS_DIRECTORY, petName])) as FaeTool;
      const schema: unknown = await E(tool).schema();
      if (!validToolSchema(schema)) {
        log(`tools/${petName} is not a FaeTool (its schema has no valid function name); skipped`);
        return { id, entry: undefined };
      }
      return { id, entry: { name: schema.function.name, petName, schema: normalise(schema), tool } };
    } catch (error) {
      log(`tools/${petName} is not a FaeTool (${error instanceof Error ? error.message : String(error)}); skipped`);
      return { id, entry: undefined };
    }
  };

  const refresh = async ({ force = false }: { force?: boolean } = {}): Promise<void> => {
    let ids: string;
    try {
      ids = ((await E(powers).listIdentifiers(TOOLS_DIRECTORY)) as string[]).join(' ');
    } catch {
      ids = '';
    }
    if (!force && ids === knownIds) return;
    knownIds = ids;
    let petNames: string[];
    try {
      petNames = (await E(powers).list(TOOLS_DIRECTORY)) as string[];
    } catch {
      petNames = [];
    }
    const next = new Map<string, Known>();
    await Promise.all(
      petNames.map(async petName => {
        const id = await E(powers).identify(TOOLS_DIRECTORY, petName);
        if (typeof id !== 'string') return;
        const before = known.get(petName);
        next.set(petName, before !== undefined && before.id === id ? before : await load(petName, id));
      }),
    );
    known = next;
    const offered = new Map<string, DynamicTool>();
    for (const petName of [...next.keys()].sort()) {
      const entry = next.get(petName)?.entry;
      if (entry === undefined) continue;
      if (builtinNames.has(entry.name)) {
        log(`tools/${petName} declares the name "${entry.name}" of a built-in tool; the built-in wins`);
      } else if (offered.has(entry.name)) {
        log(`tools/${petName} declares "${entry.name}", already offered by tools/${offered.get(entry.name)?.petName}; skipped`);
      } else {
        offered.set(entry.name, entry);
      }
    }
    byName = offered;
  };

  return {
    refresh,
    schemas: () => [...byName.values()].map(entry => entry.schema),
    find: name => byName.get(name),
  };
};
