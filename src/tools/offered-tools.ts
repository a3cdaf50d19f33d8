/**
 * Which of tools/'s entries are offered, under which names: each FaeTool,
 * and every tool of each source (tool-sources.ts), in pet-name order; an
 * entry that declares a built-in's name or a name already offered is
 * skipped, and the reason kept (for help() and a refused adoption).
 */
import type { Log } from '../log/log.js';
import type { DynamicTool, Known } from './fae-tool-registry.js';

type Entry = DynamicTool | { refused: string; petName: string };

/** The entries under one pet name: a FaeTool, a source's tools, or why it is refused. */
const entriesOf = (petName: string, known: Known): Entry[] => {
  if (known.entry !== undefined) return [known.entry];
  if (known.source === undefined)
    return known.refused === undefined ? [] : [{ refused: known.refused, petName }];
  return known.source.tools.map(each =>
    'schema' in each
      ? { name: each.schema.function.name, petName, schema: each.schema, tool: each.tool }
      : { refused: each.refused, petName: `${petName} (one of its tools)` },
  );
};

export const chooseOffered = (
  entries: ReadonlyMap<string, Known>,
  builtinNames: ReadonlySet<string>,
  log: Log,
): { offered: Map<string, DynamicTool>; skipped: Map<string, string> } => {
  const offered = new Map<string, DynamicTool>();
  const skipped = new Map<string, string>();
  for (const petName of [...entries.keys()].sort()) {
    for (const entry of entriesOf(petName, entries.get(petName) as Known)) {
      if ('refused' in entry) {
        skipped.set(entry.petName, entry.refused);
      } else if (builtinNames.has(entry.name)) {
        skipped.set(
          entry.petName,
          `it declares the name "${entry.name}" of a built-in tool; the built-in wins`,
        );
        log(
          `tools/${entry.petName} declares the name "${entry.name}" of a built-in tool; the built-in wins`,
        );
      } else if (offered.has(entry.name)) {
        skipped.set(
          entry.petName,
          `it declares "${entry.name}", already offered by tools/${offered.get(entry.name)?.petName}`,
        );
        log(
          `tools/${entry.petName} declares "${entry.name}", already offered by tools/${offered.get(entry.name)?.petName}; skipped`,
        );
      } else {
        offered.set(entry.name, entry);
      }
    }
  }
  return { offered, skipped };
};
harden(chooseOffered);
