/**
 * SmallCaps-first reading of a value the model wrote for a parameter that
 * can hold a passable (the value of `store`): every string in it is read
 * with decodeSmallcapsString (`"+5"` → 5n, `"#undefined"`, `"!+5"` → "+5").
 * Only such parameters are read this way: free text stays as written.
 */
import { decodeSmallcapsString } from './decode-smallcaps-string.js';

export const decodePassable = (value: unknown): unknown => {
  if (typeof value === 'string') return decodeSmallcapsString(value);
  if (Array.isArray(value)) return value.map(decodePassable);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, decodePassable(inner)]),
    );
  }
  return value;
};
harden(decodePassable);
