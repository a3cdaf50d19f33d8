/**
 * Removes reasoning blocks that local models put in their text:
 * `<think>…</think>`, an opening `<think>` never closed (everything after it
 * is reasoning), and a closing `</think>` whose opening the chat template
 * swallowed (everything before it is reasoning).
 */
export const stripThinking = (text: string): string => {
  let out = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const danglingClose = out.lastIndexOf('</think>');
  if (danglingClose !== -1) {
    out = out.slice(danglingClose + '</think>'.length);
  }
  const openAt = out.indexOf('<think>');
  if (openAt !== -1) {
    out = out.slice(0, openAt);
  }
  return out.trim();
};
harden(stripThinking);
