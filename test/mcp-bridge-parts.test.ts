// The MCP bridge's two readers (docs/mcp.md): what a tool answered as the text the model reads
// (tools/lib/mcp/mcp-result.ts), and each listed tool as a FaeTool schema under a name the model
// APIs take (tools/lib/mcp/mcp-tool-schemas.ts).
import { describe, expect, test } from 'vitest';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeResult } from '../tools/lib/mcp/mcp-result.js';
import { bridgeTools } from '../tools/lib/mcp/mcp-tool-schemas.js';

type Part = CallToolResult['content'][number];
const answer = (...content: Part[]): CallToolResult => ({ content });

describe('what an MCP tool answered, as the model reads it', () => {
  test('text as it is, each part on its own line', () => {
    expect(
      describeResult(answer({ type: 'text', text: 'one' }, { type: 'text', text: 'two' })),
    ).toStrictEqual({ text: 'one\ntwo', isError: false });
  });

  test('an image or audio is a note of its type and size, never its bytes', () => {
    // 8 characters of base64 are 6 bytes; its padding is no bytes.
    expect(
      describeResult(answer({ type: 'image', mimeType: 'image/png', data: 'QUJDREVG' })).text,
    ).toBe('[image (image/png, 6 bytes): not shown]');
    expect(
      describeResult(answer({ type: 'audio', mimeType: 'audio/wav', data: 'QUJDRA==' })).text,
    ).toBe('[audio (audio/wav, 4 bytes): not shown]');
  });

  test('a resource link is named with its address, and its description when it has one', () => {
    expect(
      describeResult(
        answer(
          { type: 'resource_link', name: 'notes', uri: 'file:///notes.txt' },
          { type: 'resource_link', name: 'plan', uri: 'file:///plan.md', description: 'the plan' },
        ),
      ).text,
    ).toBe(
      '[resource link: notes <file:///notes.txt>]\n[resource link: plan <file:///plan.md> the plan]',
    );
  });

  test('an embedded text resource shows its text; a binary one its type and size', () => {
    expect(
      describeResult(
        answer({ type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello' } }),
      ).text,
    ).toBe('[resource <file:///a.txt>]\nhello');
    expect(
      describeResult(
        answer(
          {
            type: 'resource',
            resource: { uri: 'file:///a.bin', blob: 'QUJD', mimeType: 'application/zip' },
          },
          { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'QUJDRA==' } },
        ),
      ).text,
    ).toBe(
      '[resource <file:///a.bin> (application/zip, 3 bytes): not shown]\n[resource <file:///b.bin> (binary, 4 bytes): not shown]',
    );
  });

  test('a part of a newer protocol is named, not shown', () => {
    const newer = { type: 'hologram', data: 'x' } as unknown as Part;
    expect(describeResult(answer(newer)).text).toBe('[hologram content: not shown]');
  });

  test('structured content is the text only when there is no other', () => {
    expect(describeResult({ content: [], structuredContent: { sum: 3 } }).text).toBe('{"sum":3}');
    expect(
      describeResult({ content: [{ type: 'text', text: 'three' }], structuredContent: { sum: 3 } })
        .text,
    ).toBe('three');
    expect(describeResult({ content: [] }).text).toBe('');
  });

  test('a result of exactly 64 KiB passes whole; one byte more is cut with a marker', () => {
    const whole = 'x'.repeat(64 * 1024);
    expect(describeResult(answer({ type: 'text', text: whole })).text).toBe(whole);
    const cut = describeResult(answer({ type: 'text', text: `${whole}y` })).text;
    expect(cut).toBe(`${whole}\n[... output cut: showing the first 65536 of 65537 bytes]`);
  });

  test('isError makes a failed call only when it is true', () => {
    expect(describeResult({ ...answer(), isError: true }).isError).toBe(true);
    expect(describeResult({ ...answer(), isError: false }).isError).toBe(false);
  });
});

const tool = (name: string, extra: Partial<Tool> = {}): Tool => ({
  name,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  ...extra,
});

describe('MCP tools as FaeTool schemas', () => {
  test('a valid tool name is kept; the schema carries its description and parameters', () => {
    const { tools, refused } = bridgeTools([tool('echo-it_2', { description: 'Echoes.' })]);
    expect(refused).toEqual([]);
    expect(tools).toStrictEqual([
      {
        name: 'echo-it_2',
        mcpName: 'echo-it_2',
        schema: {
          type: 'function',
          function: {
            name: 'echo-it_2',
            description: 'Echoes.',
            parameters: { type: 'object', properties: { text: { type: 'string' } } },
          },
        },
      },
    ]);
  });

  test('the description falls back to the title, then to none', () => {
    const { tools } = bridgeTools([
      tool('a', { title: 'The A', description: 'Does A.' }),
      tool('b', { title: 'The B' }),
      tool('c'),
    ]);
    expect(tools.map(each => each.schema.function.description)).toEqual(['Does A.', 'The B', '']);
  });

  test('every character the model APIs refuse becomes "_", and the name is cut to 64', () => {
    const long = `${'a'.repeat(60)}.tool/name`;
    const { tools } = bridgeTools([tool('files/read.text'), tool(long), tool('...')]);
    expect(tools.map(each => [each.name, each.mcpName])).toEqual([
      ['files_read_text', 'files/read.text'],
      [`${'a'.repeat(60)}_too`, long],
      ['___', '...'],
    ]);
  });

  test('a name of nothing is "tool"', () => {
    expect(bridgeTools([tool('')]).tools.map(each => each.name)).toEqual(['tool']);
  });

  test('names that meet are numbered from 2, cut so the number fits in 64', () => {
    const long = 'b'.repeat(70);
    const { tools } = bridgeTools([
      tool('a.b'),
      tool('a/b'),
      tool('a_b'),
      tool(long),
      tool(`${long}.`),
    ]);
    expect(tools.map(each => each.name)).toEqual([
      'a_b',
      'a_b_2',
      'a_b_3',
      'b'.repeat(64),
      `${'b'.repeat(62)}_2`,
    ]);
  });

  test('a tool the check refuses is left out with its reason, and takes no name', () => {
    const { tools, refused } = bridgeTools([
      tool('x.y', {
        inputSchema: {
          type: 'object',
          properties: { n: { type: 'number', maximum: Number.POSITIVE_INFINITY } },
        },
      }),
      tool('x/y'),
    ]);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.mcpName).toBe('x.y');
    expect(refused[0]!.reason).toMatch(/plain JSON/);
    expect(tools.map(each => each.name)).toEqual(['x_y']);
  });
});
