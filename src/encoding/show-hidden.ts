/**
 * Text a person must be able to trust before answering it (issue 30;
 * behaviour 3.10): every approval, code and request message the agent puts
 * to someone. Characters that reorder, hide or take over what is shown are
 * shown as visible escapes, `\u{202E}`: bidi controls (U+202A–U+202E,
 * U+2066–U+2069, U+200E, U+200F, U+061C), zero-width and other invisible
 * characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+00AD, U+180E, the tag
 * characters U+E0000–U+E007F), the line and paragraph separators U+2028 and
 * U+2029, and control characters (ESC, which starts a terminal escape, CR,
 * DEL, C1). Newlines and tabs stay, so code keeps its lines. One function
 * for all such text, so no message escapes less than another.
 */
const HIDDEN_CHARACTERS =
  '[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2028\\u2029\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB\\u{E0000}-\\u{E007F}]';
const EVERY_HIDDEN = new RegExp(HIDDEN_CHARACTERS, 'gu');
const ANY_HIDDEN = new RegExp(HIDDEN_CHARACTERS, 'u');

const escaped = (character: string): string =>
  `\\u{${(character.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;

/** The text with every hidden or display-changing character shown as `\u{…}`. */
export const showHidden = (text: string): string => text.replace(EVERY_HIDDEN, escaped);
harden(showHidden);

/** Whether showHidden would change the text. */
export const holdsHidden = (text: string): boolean => ANY_HIDDEN.test(text);
harden(holdsHidden);
