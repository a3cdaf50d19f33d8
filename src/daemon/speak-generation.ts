/**
 * The system prompt and the built-in tools' descriptions are written for the
 * daemon of the Lal/Fae design (HOST, SELF, AGENT, MAIL). On the newest
 * daemon the same words would send mail to an ordinary, unbound "HOST", so
 * its special names are written in, and a short section says what differs.
 */
import type { ToolSchema } from '../../providers/types.js';
import type { DaemonAdapter } from './daemon-adapter.js';
import { withoutOps } from '../tools/tool-groups.js';

const SPECIAL = /\b(HOST|SELF|AGENT|MAIL)\b/g;

const respell = (text: string, daemon: DaemonAdapter): string =>
  text
    .replace(/special names are upper case/gi, 'special names start with @')
    .replace(
      SPECIAL,
      word => daemon.names[word.toLowerCase() as 'host' | 'self' | 'agent' | 'mail'],
    );

/** Tools (or ops of a grouped tool) offered only on daemons that have what they need. */
const NEWEST_ONLY = new Set(['messageHistory']);

/** The schemas without the newest daemon's own tools and ops. */
const withoutNewestOnly = (schemas: readonly ToolSchema[]): readonly ToolSchema[] =>
  harden(
    schemas
      .filter(schema => !NEWEST_ONLY.has(schema.function.name))
      .map(schema => withoutOps(schema, NEWEST_ONLY)),
  );

export const promptFor = (
  prompt: string,
  daemon: DaemonAdapter | undefined,
  directEvaluation = false,
): string => {
  if (daemon === undefined || daemon.generation !== 'newest') return prompt;
  const evaluation = directEvaluation
    ? 'evaluate runs your code at once, without asking anyone; its outcome still comes as a GRANTED or REJECTED notice.'
    : `evaluate puts your code to ${daemon.names.host} as a request; it runs only once ${daemon.names.host} agrees, and the outcome comes as a GRANTED or REJECTED notice as usual.`;
  return `${respell(prompt, daemon)}

## This daemon
Special names here: ${daemon.names.host} (your host), ${daemon.names.self} (you), ${daemon.names.agent} (your powers), ${daemon.names.mail} (your inbox); "HOST" is not one of them. ${evaluation} A sender may edit a message after sending it: when a notice says a message was amended, mail's messageHistory op shows its revisions.`;
};

/** The built-in schemas as this daemon's model should see them. */
export const schemasFor = (
  schemas: readonly ToolSchema[],
  daemon: DaemonAdapter | undefined,
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
        respelled.function.description = directEvaluation
          ? 'Run JavaScript at once (this daemon asks nobody). Returns at once; the outcome comes later as a notice (GRANTED or REJECTED).'
          : `Propose JavaScript to ${daemon.names.host}: it runs only once ${daemon.names.host} agrees. Returns at once; the outcome comes later as a notice (GRANTED or REJECTED).`;
      }
      return respelled;
    }),
  );
};
