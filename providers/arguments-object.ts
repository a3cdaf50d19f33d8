/**
 * Anthropic (`tool_use.input`) and Ollama (`function.arguments`) carry a tool
 * call's arguments as a JSON object, while our transcript keeps the raw text
 * the model wrote. Raw text that is a JSON object goes over as that object.
 * Anything else (broken JSON, an array, a bare string — possible only for
 * calls recovered from reply text) cannot be carried as it is; it goes over
 * as `{ "_raw": <the text> }`, so the history stays valid and the model still
 * sees exactly what was written (its tool result already told it the
 * arguments were not usable).
 */
const RAW_ARGUMENTS_KEY = '_raw';

export const argumentsAsObject = (raw: string): Record<string, unknown> => {
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Not JSON: carried raw below.
  }
  return { [RAW_ARGUMENTS_KEY]: raw };
};
harden(argumentsAsObject);
