/**
 * Cuts a tool result that is too long for the prompt, with a marker that
 * says how long the original was, so the model knows it saw a part.
 */
export const capResult = (text: string, maxChars: number): string => {
  if (text.length <= maxChars) return text;
  const marker = `\n[cut: the result was ${text.length} characters; the first ${maxChars} are shown]`;
  return `${text.slice(0, maxChars)}${marker}`;
};
harden(capResult);
