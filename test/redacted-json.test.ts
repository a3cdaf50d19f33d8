/**
 * What is stored is redacted (behaviour 1.4), made as cheaply as a memory
 * written after every message allows (issue 46, point 8: a ping's
 * allocation): when the plain JSON can hold nothing the redactor would
 * change, it is the answer, made in one pass; otherwise each string (keys
 * too) is redacted before it is escaped. For every value and every set of
 * secrets — ones JSON escapes, ones split by surrogates, bearer and
 * x-api-key values, secrets in keys — the text is the one redacting string
 * by string makes, and holds no secret.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { makeRedactText, secretNamedValues, type Redact } from '../providers/redact-secrets.js';
import { redactedJson } from '../src/log/redacted-json.js';

/** The same redactor, without the shortcut: asked string by string. */
const stringByString =
  (redact: Redact): Redact =>
  (text: string) =>
    redact(text);

const SECRETS = [
  'sk-plain-secret-1234',
  'sk-"quoted\\back\nline',
  'tok-\u2192-arrow',
  'emoji-\ud83d\ude00-key',
  'lone-\ud800-half',
  'end-high-\ud83d',
  'caf\u00e9-secret',
];

/** Text that may hold a secret, a bearer or x-api-key value, or pieces of them. */
const textArbitrary = (secrets: readonly string[]) =>
  fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.string({ unit: 'grapheme', maxLength: 6 }),
        fc.constantFrom(
          ...secrets,
          ...secrets.map(secret => secret.slice(0, -1)),
          'Bearer abcdefgh12345',
          'x-api-key: "sk0123456789abcd"',
          'BEARER',
          '\ud83d',
          '\ude00',
        ),
      ),
      { maxLength: 5 },
    )
    .map(parts => parts.join(''));

const valueArbitrary = (secrets: readonly string[]) => {
  const text = textArbitrary(secrets);
  return fc.letrec(tie => ({
    value: fc.oneof(
      { depthSize: 'small' },
      text,
      fc.integer(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(text, tie('value'), { maxKeys: 4 }),
    ),
  })).value;
};

describe('the stored JSON, redacted (behaviour 1.4)', () => {
  test('for every value and set of secrets: the same text as string by string, and no secret in it', () => {
    fc.assert(
      fc.property(
        fc
          .subarray(SECRETS, { minLength: 0 })
          .chain(secrets => fc.tuple(fc.constant(secrets), valueArbitrary(secrets))),
        ([secrets, value]) => {
          const redact = makeRedactText(secrets);
          const text = redactedJson(value, redact);
          expect(text).toBe(redactedJson(value, stringByString(redact)));
          const parsed = JSON.stringify(JSON.parse(text));
          for (const secret of secrets) expect(JSON.parse(text) === secret).toBe(false);
          for (const secret of secrets)
            expect(parsed.includes(JSON.stringify(secret).slice(1, -1))).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('a value holding no secret is its plain JSON; one holding a secret in a value or a key is redacted', () => {
    const redact = makeRedactText(['sk-"quoted\\secret-99']);
    const plain = { role: 'user', content: ['ping \u2192 pong', 42, null] };
    expect(redact.mayChangeJson?.(JSON.stringify(plain))).toBe(false);
    expect(redactedJson(plain, redact)).toBe(JSON.stringify(plain));
    const leaky = { 'sk-"quoted\\secret-99': 'my token is sk-"quoted\\secret-99 ok' };
    expect(redact.mayChangeJson?.(JSON.stringify(leaky))).toBe(true);
    expect(redactedJson(leaky, redact)).toBe('{"[redacted]":"my token is [redacted] ok"}');
    expect(redactedJson({ auth: 'Authorization: Bearer zzzzzzzzzzzz' }, redact)).toBe(
      '{"auth":"Authorization: Bearer [redacted]"}',
    );
  });

  test('a secret ending in half a surrogate pair, paired in the text, is hidden: JSON does not escape it there', () => {
    const redact = makeRedactText(['end-high-\ud83d', 'a-plain-secret-99']);
    const value = { said: 'x end-high-\ud83d\ude00 y' };
    expect(redactedJson(value, redact)).toBe(redactedJson(value, stringByString(redact)));
    expect(redactedJson(value, redact)).toBe('{"said":"x [redacted]\\ude00 y"}');
  });

  test('a text with neither mark nor secret is returned as it is; a credential is still hidden', () => {
    const redact = makeRedactText(['abcd-efgh-ijkl']);
    const said = 'ping \u2192 pong, 2048 tokens';
    expect(redact(said)).toBe(said);
    expect(redact('x-api-key: sk0123456789abcd and abcd-efgh-ijkl')).toBe(
      'x-api-key: [redacted] and [redacted]',
    );
    expect(redact('BEARER zzzzzzzzzzzz')).toBe('BEARER [redacted]');
  });

  test('a value with nothing to hide is not redacted string by string: the redactor is not asked', () => {
    const base = makeRedactText(['sk-plain-secret-1234', 'another-secret-5678', 'abc']);
    let asked = 0;
    const counting: Redact = Object.assign(
      (text: string) => {
        asked += 1;
        return base(text);
      },
      { mayChangeJson: base.mayChangeJson! },
    );
    // 'abc' is too short to be hidden: it is no reason to redact string by string either.
    const plain = { turns: [{ role: 'user', content: 'abc ping' }], handled: ['id:1', 'id:2'] };
    expect(redactedJson(plain, counting)).toBe(JSON.stringify(plain));
    expect(asked).toBe(0);
    const leaky = { turns: [{ role: 'user', content: 'sk-plain-secret-1234' }] };
    expect(redactedJson(leaky, counting)).toBe(
      '{"turns":[{"role":"user","content":"[redacted]"}]}',
    );
    expect(asked).toBeGreaterThan(0);
  });

  test('a secret that holds another is hidden whole, whatever order they were given in', () => {
    expect(makeRedactText(['abcd', 'abcd-efgh-ijkl'])('x abcd-efgh-ijkl y')).toBe('x [redacted] y');
    expect(makeRedactText(['abcd-efgh-ijkl', 'abcd'])('x abcd-efgh-ijkl y')).toBe('x [redacted] y');
  });

  test('a bearer value after several spaces is hidden', () => {
    expect(makeRedactText([])('Authorization: Bearer   zzzzzzzzzzzz')).toBe(
      'Authorization: Bearer   [redacted]',
    );
  });

  test('the secret-named values: long enough, text, and not a plain number', () => {
    expect(
      secretNamedValues({
        SHORT_KEY: 'abc',
        NO_TOKEN: undefined,
        SIGNED_TOKENS: '+2048',
        RATE_SECRET: ' 12.55 ',
        MIXED_TOKEN: '2048abcd',
        LAL_MODEL: 'not-a-secret-name',
      }),
    ).toEqual(['2048abcd']);
  });
});
