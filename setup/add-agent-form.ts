/**
 * The "Add an agent" form the agent manager sends `@host` on the newest
 * daemon, with the four fields upstream Lal's manager asks for (endo
 * packages/lal/agent.js): the agent's name, the API host, the model and the
 * auth token, the last marked secret so the chat UI hides what is typed; and
 * before it the name of a value the HOST stored that holds the key, which
 * keeps the key out of the chat altogether (the submission shows the name). The
 * daemon fills in the defaults of fields left empty when the form is
 * submitted, and hands the values to the manager as a `value` message.
 */
import { Fail, makeError, q, X } from '@endo/errors';

export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly default?: string;
  readonly example?: string;
  readonly secret?: boolean;
}

// Upstream Lal's manager sends "Add an agent" too: ours says it makes a lal-fae agent (issue 35).
export const ADD_AGENT_DESCRIPTION = 'Add an agent (lal-fae: Lal or Fae)';
harden(ADD_AGENT_DESCRIPTION);

/** The key-name field's default: no stored key, the token field instead (a form field needs a default to be left empty). */
const NO_KEY_NAME = 'none';
harden(NO_KEY_NAME);

export const ADD_AGENT_FIELDS: readonly FormField[] = harden([
  {
    name: 'name',
    label: 'Agent name',
    example: 'lal-2 (lower case letters, digits and -; fae gets the Fae persona)',
  },
  {
    name: 'host',
    label: 'API host',
    default: 'http://localhost:11434/v1',
    example: 'https://api.anthropic.com for Anthropic',
  },
  {
    name: 'model',
    label: 'Model name',
    default: 'qwen3',
    example: 'claude-sonnet-4-5 for Anthropic',
  },
  {
    name: 'authTokenName',
    label:
      'API key, by name (preferred: never shown): a value you stored with endo store --text KEY --name my-key; none: the token below',
    default: NO_KEY_NAME,
    example: 'my-key',
  },
  {
    name: 'authToken',
    label: 'Or the API auth token itself (your chat shows it once submitted)',
    default: 'ollama',
    example: 'sk-ant-... for Anthropic',
    secret: true,
  },
]);
harden(ADD_AGENT_FIELDS);

/** What a submission holds: every field as a string. */
export interface AgentSubmission {
  readonly name: string;
  readonly host: string;
  readonly model: string;
  readonly authToken: string;
  /** The HOST's name for a stored text holding the key; '' when none (NO_KEY_NAME, or a form sent before the field was). */
  readonly authTokenName: string;
}

/** Reads the submitted record; a missing or non-string field is refused (naming the field, never a value). */
export const readSubmission = (values: unknown): AgentSubmission => {
  (typeof values === 'object' && values !== null) || Fail`the submission is not a record of values`;
  const record = values as Record<string, unknown>;
  const field = (name: keyof AgentSubmission): string => {
    const value = record[name];
    if (typeof value !== 'string') throw makeError(X`the field ${q(name)} is missing or not text`);
    return value.trim();
  };
  return harden({
    name: field('name'),
    host: field('host'),
    model: field('model'),
    authToken: field('authToken'),
    authTokenName:
      record.authTokenName === undefined || record.authTokenName === NO_KEY_NAME
        ? ''
        : field('authTokenName'),
  });
};
harden(readSubmission);
