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

const base64Bytes = (data: string): number => Math.floor((data.replace(/=+$/, '').length * 3) / 4);

/**
 * One part of the content, which the SDK's client has already checked
 * against the protocol's schema (CallToolResultSchema): a part of another
 * type, or one that lacks a required field, fails the call there.
 */
const describePart = (part: CallToolResult['content'][number]): string => {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type} (${part.mimeType}, ${base64Bytes(part.data)} bytes): not shown]`;
    case 'resource_link':
      return `[resource link: ${part.name} <${part.uri}>${part.description === undefined ? '' : ` ${part.description}`}]`;
    case 'resource': {
      const { resource } = part;
      if ('text' in resource) return `[resource <${resource.uri}>]\n${resource.text}`;
      return `[resource <${resource.uri}> (${resource.mimeType ?? 'binary'}, ${base64Bytes(resource.blob)} bytes): not shown]`;
    }
    default:
      // A type of a newer protocol than the SDK's is named, not shown.
      return `[${(part as { type: string }).type} content: not shown]`;
  }
};

/** The result's text, cut to MAX_RESULT_BYTES with a marker. */
export const describeResult = (result: CallToolResult): { text: string; isError: boolean } => {
  let text = result.content.map(describePart).join('\n');
  if (text === '' && result.structuredContent !== undefined)
    text = JSON.stringify(result.structuredContent);
  return { text: capText(text, MAX_RESULT_BYTES).text, isError: result.isError === true };
};
harden(describeResult);
