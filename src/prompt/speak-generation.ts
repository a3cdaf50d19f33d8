/**
 * The system prompt and the built-in tools' descriptions are written for the
 * daemon of the Lal/Fae design (HOST, SELF, AGENT, MAIL). On the newest
 * daemon the same words would send mail to an ordinary, unbound "HOST", so
 * its special names are written in, and evaluate says who approves code there.
 */
import type { ToolSchema } from '../../providers/types.js';
import type { DaemonAdapter } from '../daemon/daemon-adapter.js';
import { keepNames } from '../agent-tools/tool-groups.js';
import { NEWEST_DAEMON_NAMES } from '../agent-tools/builtin-schemas.js';

/** What the wording depends on: the generation and its special names. */
export type DaemonWords = Pick<DaemonAdapter, 'generation' | 'names'>;

const SPECIAL = /\b(HOST|SELF|AGENT|MAIL)\b/g;

const respell = (text: string, daemon: DaemonWords): string =>
  text
    .replace(/special names are upper case/gi, 'special names start with @')
    .replace(
      SPECIAL,
      word => daemon.names[word.toLowerCase() as 'host' | 'self' | 'agent' | 'mail'],
    );

/** The schemas without what only the newest daemon has what it needs for (each record's `daemon`). */
const withoutNewestOnly = (schemas: readonly ToolSchema[]): readonly ToolSchema[] =>
  harden(keepNames(schemas, name => !NEWEST_DAEMON_NAMES.has(name)));

export const promptFor = (prompt: string, daemon: DaemonWords | undefined): string =>
  // Respelled, and nothing added: the prompt's special names then start with @, the evaluate
  // description says who approves code, and an amended message's notice says where its revisions are.
  daemon === undefined || daemon.generation !== 'newest' ? prompt : respell(prompt, daemon);
harden(promptFor);

/** The built-in schemas as this daemon's model should see them. */
export const schemasFor = (
  schemas: readonly ToolSchema[],
  daemon: DaemonWords | undefined,
  directEvaluation = false,
): readonly ToolSchema[] => {
  if (daemon === undefined || daemon.generation !== 'newest') return withoutNewestOnly(schemas);
  return harden(
    schemas.map(schema => {
      const text = JSON.stringify(schema, (key, value: unknown) =>
        key === 'description' && typeof value === 'string' ? respell(value, daemon) : value,
      );
      const respelled = JSON.parse(text) as ToolSchema;
      if (schema.function.name === 'evaluate') {
        // Who approves the code differs; how to give it values and keep its result does not.
        respelled.function.description = respelled.function.description.replace(
          /^Propose JavaScript to [^,]+/,
          directEvaluation
            ? 'Run JavaScript at once (this daemon asks nobody)'
            : `Propose JavaScript to ${daemon.names.host} (it runs only once ${daemon.names.host} agrees)`,
        );
      }
      return respelled;
    }),
  );
};
harden(schemasFor);
