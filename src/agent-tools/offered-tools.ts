/**
 * Which of tools/'s entries are offered, under which names: each FaeTool,
 * and every tool of each source (tool-sources.ts): first the HOST's, in
 * pet-name order, then those adopted from others, oldest first
 * (tool-givers.ts, behaviour 9.8), so a tool someone else gave never takes a
 * name the HOST's tools offer; an entry that declares a built-in's name or
 * a name already offered is skipped, and the reason kept (for help() and a
 * refused adoption).
 */
import type { Log } from '../log/log.js';
import type { DynamicTool, Known } from './dynamic-tool.js';
import type { ToolGivers } from './tool-givers.js';

type Entry = DynamicTool | { refused: string; petName: string };

/** The entries under one pet name: a FaeTool, a source's tools, or why it is refused. */
const entriesOf = (petName: string, known: Known): Entry[] => {
  if (known.entry !== undefined) return [known.entry];
  if (known.source === undefined)
    return known.refused === undefined ? [] : [{ refused: known.refused, petName }];
  return known.source.tools.map(each =>
    'schema' in each
      ? {
          name: each.schema.function.name,
          petName,
          schema: each.schema,
          tool: each.tool,
          stoppable: each.stoppable,
        }
      : { refused: each.refused, petName: `${petName} (one of its tools)` },
  );
};

/** The HOST's entries first (by pet name), then adopted ones in the order they were adopted. */
const byPrecedence = (
  entries: ReadonlyMap<string, Known>,
  givers: ToolGivers | undefined,
): string[] => {
  const rank = (petName: string) =>
    givers?.giverOf(petName, (entries.get(petName) as Known).id)?.order ?? 0;
  return [...entries.keys()].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
};

export const chooseOffered = (
  entries: ReadonlyMap<string, Known>,
  builtinNames: ReadonlySet<string>,
  log: Log,
  givers?: ToolGivers,
): { offered: Map<string, DynamicTool>; skipped: Map<string, string> } => {
  const offered = new Map<string, DynamicTool>();
  const skipped = new Map<string, string>();
  for (const petName of byPrecedence(entries, givers)) {
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

/** Every tool offered: its name, its pet name in tools/, and who gave it (undefined: the HOST). */
export const whoGave = (
  offered: ReadonlyMap<string, DynamicTool>,
  entries: ReadonlyMap<string, Known>,
  givers: ToolGivers | undefined,
): { name: string; petName: string; givenBy: string | undefined }[] =>
  [...offered.values()].map(({ name, petName }) => {
    const id = entries.get(petName)?.id;
    return {
      name,
      petName,
      givenBy: id === undefined ? undefined : givers?.giverOf(petName, id)?.from,
    };
  });
harden(whoGave);
