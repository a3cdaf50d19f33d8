/**
 * Finds tool calls that a model wrote into its reply text instead of the
 * structured field, in the two forms local models use:
 *   <tool_call>{"name": "reply", "arguments": {...}}</tool_call>
 *   <function=reply><parameter=messageNumber>5</parameter>…</function>
 * (the second inside or outside <tool_call>). Returns the calls with their
 * arguments as JSON text, and the text with the markup taken out.
 */
export interface RecoveredCall {
  name: string;
  arguments: string;
}

export interface Recovery {
  calls: RecoveredCall[];
  text: string;
}

const FUNCTION_BLOCK = /<function=([^>\s]+)\s*>([\s\S]*?)(?:<\/function>|$)/g;
const PARAMETER = /<parameter=([^>\s]+)\s*>([\s\S]*?)<\/parameter>/g;
const TOOL_CALL_BLOCK = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;

/** A parameter's value is JSON when it reads as JSON (`["pong"]`, `5`), else the plain string. */
const readParameterValue = (raw: string): unknown => {
  const text = raw.replace(/^\n/, '').replace(/\n$/, '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const parseFunctionBlocks = (text: string): RecoveredCall[] => {
  const calls: RecoveredCall[] = [];
  for (const [, name, body] of text.matchAll(FUNCTION_BLOCK)) {
    const args: Record<string, unknown> = {};
    for (const [, key, value] of (body ?? '').matchAll(PARAMETER)) {
      args[key as string] = readParameterValue(value ?? '');
    }
    calls.push({ name: name as string, arguments: JSON.stringify(args) });
  }
  return calls;
};

/** Reads the arguments of a parsed <tool_call> object, keeping them as JSON text. */
const argumentsText = (value: unknown): string => {
  if (value === undefined) return '{}';
  // Some models put the arguments in as a JSON string already.
  return typeof value === 'string' ? value : JSON.stringify(value);
};

/**
 * When the JSON in a <tool_call> is broken, still find the name and the
 * arguments' text, so the model gets a precise error for bad arguments
 * rather than a silent nothing.
 */
const salvageBrokenJson = (body: string): RecoveredCall | undefined => {
  const name = /"name"\s*:\s*"([^"]+)"/.exec(body)?.[1];
  if (name === undefined) return undefined;
  const argsAt = /"(?:arguments|parameters)"\s*:\s*/.exec(body);
  if (argsAt === null) return { name, arguments: '{}' };
  let rest = body.slice(argsAt.index + argsAt[0].length).trim();
  // Drop the closing brace of the outer object, if it is there.
  if (rest.endsWith('}')) rest = rest.slice(0, -1).trimEnd();
  return { name, arguments: rest };
};

const parseToolCallBody = (body: string): RecoveredCall[] => {
  const trimmed = body.trim();
  if (trimmed.includes('<function=')) {
    return parseFunctionBlocks(trimmed);
  }
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const items = Array.isArray(parsed) ? parsed : [parsed];
    const calls: RecoveredCall[] = [];
    for (const item of items) {
      if (item !== null && typeof item === 'object' && typeof (item as { name?: unknown }).name === 'string') {
        const record = item as { name: string; arguments?: unknown; parameters?: unknown };
        calls.push({ name: record.name, arguments: argumentsText(record.arguments ?? record.parameters) });
      }
    }
    return calls;
  } catch {
    const salvaged = salvageBrokenJson(trimmed);
    return salvaged === undefined ? [] : [salvaged];
  }
};

export const recoverToolCalls = (text: string): Recovery => {
  if (!text.includes('<tool_call>') && !text.includes('<function=')) {
    return { calls: [], text };
  }
  const calls: RecoveredCall[] = [];
  let rest = text.replace(TOOL_CALL_BLOCK, (_whole, body: string) => {
    calls.push(...parseToolCallBody(body));
    return '';
  });
  rest = rest.replace(FUNCTION_BLOCK, whole => {
    calls.push(...parseFunctionBlocks(whole));
    return '';
  });
  return { calls, text: rest.replace(/<\/?tool_call>/g, '').trim() };
};
