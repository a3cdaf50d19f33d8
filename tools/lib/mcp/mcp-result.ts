/**
 * What an MCP tool answered, as the text the model reads: text as it is,
 * an image or audio as a short note (the model cannot see the bytes and
 * they would fill its context), a resource as a link, an embedded text
 * resource with its text, structured content as JSON when there is no text.
 * Bounded here (so a flood never crosses to the agent) and again by the
 * agent's own result cap. `isError` becomes a failed call, so the model is
 * told the tool failed rather than handed the failure as a result.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { capText } from '../output-cap.js';

/** The most of one result the bridge passes on; the agent cuts further (LAL_MAX_RESULT_CHARS). */
const MAX_RESULT_BYTES = 64 * 1024;
harden(MAX_RESULT_BYTES);

const base64Bytes = (data: unknown): number =>
  typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0;

type Part = Record<string, unknown> & { type?: unknown };

const describePart = (part: Part): string => {
  switch (part.type) {
    case 'text':
      return typeof part.text === 'string' ? part.text : '';
    case 'image':
    case 'audio':
      return `[${part.type} (${String(part.mimeType ?? 'unknown type')}, ${base64Bytes(part.data)} bytes): not shown]`;
    case 'resource_link':
      return `[resource link: ${String(part.name ?? part.uri)} <${String(part.uri)}>${typeof part.description === 'string' ? ` ${part.description}` : ''}]`;
    case 'resource': {
      const resource = (part.resource ?? {}) as Record<string, unknown>;
      const uri = String(resource.uri ?? '');
      if (typeof resource.text === 'string') return `[resource <${uri}>]\n${resource.text}`;
      return `[resource <${uri}> (${String(resource.mimeType ?? 'binary')}, ${base64Bytes(resource.blob)} bytes): not shown]`;
    }
    default:
      return `[${String(part.type)} content: not shown]`;
  }
};

/** The result's text, cut to MAX_RESULT_BYTES with a marker. */
export const describeResult = (result: CallToolResult): { text: string; isError: boolean } => {
  const parts = Array.isArray(result.content) ? (result.content as Part[]) : [];
  let text = parts.map(describePart).join('\n');
  if (text === '' && result.structuredContent !== undefined)
    text = JSON.stringify(result.structuredContent);
  return { text: capText(text, MAX_RESULT_BYTES).text, isError: result.isError === true };
};
harden(describeResult);
