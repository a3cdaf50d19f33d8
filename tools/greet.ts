/** `greet`: says hello to someone in one of a handful of languages. */
import type { Env } from '../providers/types.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { choice, optional, parameters, text, type ValuesOf } from './lib/fae-parameters.js';

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

const greetParameters = {
  name: text('Who to greet.', { trimmed: true }),
  language: optional(
    choice(
      `Language code (default "en"): ${languageCodes
        .map(code => `${code} = ${greetings[code]?.language}`)
        .join(', ')}.`,
      languageCodes,
      // Its English name is understood too ("French"), not offered.
      Object.fromEntries(languageCodes.map(code => [greetings[code]!.language, code])),
    ),
  ),
};

function run({ name, language = 'en' }: ValuesOf<typeof greetParameters>) {
  const template = greetings[language]!;
  return {
    greeting: `${template.before}${name}${template.after}`,
    language,
  };
}

export const make = (_powers?: unknown, _context?: unknown, _options?: { env?: Env }) => {
  return makeFaeTool({
    name: toolName,
    description: 'Greet a person by name in one of several languages.',
    parameters: parameters(greetParameters),
    returns: '{ greeting, language }',
    help: [
      `language is one of ${languageCodes.join(', ')} (or its English name); default en.`,
      'Any other language is an error that lists the supported ones.',
    ].join('\n'),
    run,
  });
};
harden(make);
