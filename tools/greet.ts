/** `greet`: says hello to someone in one of a handful of languages. */
import type { Env } from '../providers/types.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { optionalString, requireString } from './lib/tool-args.js';
import type { ToolArgs } from './lib/tool-args.js';

const toolName = 'greet';

/** Greeting templates by language code; `{name}` is replaced by splitting, not by a regex. */
const greetings: Readonly<Record<string, { language: string; before: string; after: string }>> = {
  en: { language: 'English', before: 'Hello, ', after: '!' },
  fr: { language: 'French', before: 'Bonjour, ', after: ' !' },
  es: { language: 'Spanish', before: '¡Hola, ', after: '!' },
  de: { language: 'German', before: 'Hallo, ', after: '!' },
  it: { language: 'Italian', before: 'Ciao, ', after: '!' },
  pt: { language: 'Portuguese', before: 'Olá, ', after: '!' },
  nl: { language: 'Dutch', before: 'Hallo, ', after: '!' },
  ja: { language: 'Japanese', before: 'こんにちは、', after: 'さん！' },
};
const languageCodes = Object.keys(greetings);

/** Accepts a code (`fr`) or an English language name (`French`), any case. */
function findLanguage(requested: string): string | undefined {
  const wanted = requested.trim().toLowerCase();
  return languageCodes.find(
    code => code === wanted || greetings[code]?.language.toLowerCase() === wanted,
  );
}

function run(args: ToolArgs) {
  const name = requireString(toolName, args, 'name').trim();
  if (name === '') throw Error(`${toolName}: name must not be blank`);
  const requested = optionalString(toolName, args, 'language') ?? 'en';
  const code = findLanguage(requested);
  const template = code === undefined ? undefined : greetings[code];
  if (code === undefined || template === undefined) {
    throw Error(
      `${toolName}: unsupported language ${JSON.stringify(requested)}; supported: ${languageCodes.join(', ')}`,
    );
  }
  return {
    greeting: `${template.before}${name}${template.after}`,
    language: code,
  };
}

export const make = (_powers?: unknown, _context?: unknown, _options?: { env?: Env }) => {
  return makeFaeTool({
    name: toolName,
    description: 'Greet a person by name in one of several languages.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'Who to greet.' },
        language: {
          type: 'string',
          enum: languageCodes,
          description: `Language code (default "en"): ${languageCodes
            .map(code => `${code} = ${greetings[code]?.language}`)
            .join(', ')}.`,
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    returns: '{ greeting, language }',
    help: [
      `language is one of ${languageCodes.join(', ')} (or its English name); default en.`,
      'Any other language is an error that lists the supported ones.',
    ].join('\n'),
    run,
  });
};
harden(make);
