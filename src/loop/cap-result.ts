/**
 * Cuts a tool result that is too long for the prompt, with a marker that
 * says how long the original was, so the model knows it saw a part.
 */
import { cutIndex } from '../log/cut-text.js';

export const capResult = (text: string, maxChars: number): string => {
  if (text.length <= maxChars) return text;
  // Never through a token: a piece of a secret would outlive its redaction (behaviour 9.5).
  const kept = cutIndex(text, maxChars);
  const marker = `\n[cut: the result was ${text.length} characters; the first ${kept} are shown]`;
  return `${text.slice(0, kept)}${marker}`;
};
harden(capResult);
