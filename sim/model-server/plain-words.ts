/**
 * What the model double tells a person of a result, in the words a model would use: a tool's
 * result and an approved call's return come to the model as JSON (src/encoding/render-for-model.ts),
 * and a helper's task is quoted as a JSON string in its end's notice (src/helpers/helpers.ts).
 * Echoed as they came, the person read them escaped once by the agent and again by the
 * reply's tool-call line (`\\\"`, issue 45) and saw raw JSON where an answer was meant (issue 46):
 * so the double reads the JSON and says what is in it, quoted text as it was typed. What JSON
 * escaped that hides or reorders text stays a visible escape (src/encoding/show-hidden.ts).
 */
import { showHidden } from '../../src/encoding/show-hidden.js';

/** A value read from JSON, said plainly: text as it is, a record as `key: value` pairs. */
const inWords = (value: unknown): string => {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(inWords).join(', ');
  if (value !== null && typeof value === 'object')
    return (
      Object.entries(value)
        // What is empty says nothing (a command's empty stderr, a signal it never had).
        .filter(([, each]) => each !== null && each !== '')
        .map(([key, each]) => {
          const said = inWords(each);
          // A record inside a record keeps its pairs together.
          return `${key}: ${each !== null && typeof each === 'object' ? `(${said})` : said}`;
        })
        .join(', ')
    );
  return String(value);
};

/** A result as the double tells it: JSON said in words; anything else as it came. */
export const resultInWords = (text: string): string => {
  try {
    return showHidden(inWords(JSON.parse(text)));
  } catch {
    // Not JSON (a plain text result, or one cut short): as it came.
    return text.trim();
  }
};
harden(resultInWords);

/** The error of a failed call's result (`{"error":"…"}`), or undefined for a result that is no failure. */
export const errorOf = (text: string): string | undefined => {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed !== null &&
      typeof parsed === 'object' &&
      'error' in parsed &&
      typeof parsed.error === 'string' &&
      Object.keys(parsed).length === 1
      ? showHidden(parsed.error)
      : undefined;
  } catch {
    return undefined;
  }
};
harden(errorOf);

// A helper's end: `DONE: helper h1 (task "…", 1 model call) handed back: …` (src/helpers/helpers.ts).
const HELPER_END =
  /^(?:DONE|FAILED|TIMED OUT|STOPPED): helper (\S+) \(task ("(?:[^"\\]|\\.)*"), \d+ model calls?\) ([\s\S]*)$/;

/** A helper's end told as a model would: which helper, its task as it was written, and how it ended. */
export const helperEndInWords = (line: string): string | undefined => {
  const end = HELPER_END.exec(line);
  if (end === null) return undefined;
  try {
    const task = JSON.parse(end[2]!) as string;
    return `My helper ${end[1]} (task: ${showHidden(task)}) ${end[3]}`;
  } catch {
    // A task quoted in a way JSON does not read: the line as it came.
    return undefined;
  }
};
harden(helperEndInWords);
