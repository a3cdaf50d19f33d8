/**
 * SmallCaps-first reading of one string the model wrote: `"+5"` is 5n,
 * `"#undefined"` is undefined, `"!+5"` is the string "+5". A string that
 * SmallCaps cannot read (or would read as a symbol or a slot reference) is
 * kept as the plain string the model wrote, so ordinary text such as
 * "- item (note) $5" survives.
 */
import { makeMarshal } from '@endo/marshal';

const { fromCapData } = makeMarshal(undefined, undefined, {
  serializeBodyFormat: 'smallcaps',
  errorTagging: 'off',
});

// Characters SmallCaps reserves at the start of a string.
const SPECIAL_START = /^[!"#$%&'()*+,-]/;

export const decodeSmallcapsString = (text: string): unknown => {
  if (!SPECIAL_START.test(text) || text === '!') {
    return text;
  }
  let decoded: unknown;
  try {
    decoded = fromCapData({ body: `#${JSON.stringify(text)}`, slots: [] });
  } catch {
    return text;
  }
  switch (typeof decoded) {
    case 'bigint':
    case 'undefined':
    case 'string':
      return decoded;
    case 'number':
      // Only the SmallCaps constants (#NaN, #Infinity, #-Infinity) get here.
      return decoded;
    default:
      return text;
  }
};
harden(decodeSmallcapsString);
