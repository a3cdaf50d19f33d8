/**
 * Renders a tool's result (any passable, hardened or not) as JSON text for
 * the model, in the same SmallCaps conventions the prompt teaches for
 * arguments: bigints as "+5"/"-5", undefined as "#undefined", NaN and
 * infinities as "#NaN"/"#Infinity", and remotables as "$Alleged: Name
 * (methods: …)". Strings are shown as they are, never escaped: the model
 * copies text from results into free-text arguments (file content, replies),
 * which are taken exactly as written. Plain JSON.stringify would make a
 * remotable `{}` and throw on a bigint.
 */
import { E } from '@endo/far';
import { getInterfaceOf } from '@endo/marshal';
import { runWithTimeout } from '../lifecycle/run-with-timeout.js';
import type { Introspectable } from '../daemon/remote-objects.js';
import { describeError } from '../../providers/describe-error.js';

const METHOD_NAMES_TIMEOUT_MS = 1_000;

/** How a remotable is described; injectable so tests and hot paths can skip the round trip. */
export type DescribeRemotable = (value: object) => Promise<string>;

/** Names a remotable by its interface and, when it answers, its method names. */
export const describeRemotable: DescribeRemotable = async value => {
  const iface = getInterfaceOf(value) ?? 'Alleged: remotable';
  const names = await runWithTimeout(
    Promise.resolve(E(value as Introspectable).__getMethodNames__()) as Promise<unknown>,
    METHOD_NAMES_TIMEOUT_MS,
    'Asking for method names',
  ).catch(() => undefined);
  const methods = Array.isArray(names)
    ? names.filter((name): name is string => typeof name === 'string' && !name.startsWith('__'))
    : [];
  return methods.length > 0 ? `$${iface} (methods: ${methods.join(', ')})` : `$${iface}`;
};
harden(describeRemotable);

const isRemotable = (value: object): boolean => getInterfaceOf(value) !== undefined;

const toModelValue = async (
  value: unknown,
  describe: DescribeRemotable,
  // The objects this value sits inside: a cycle is one of them met again. Not one set shared by the
  // whole walk, since siblings are rendered side by side and a value two of them share is no cycle.
  ancestors: ReadonlySet<object>,
): Promise<unknown> => {
  switch (typeof value) {
    case 'undefined':
      return '#undefined';
    case 'bigint':
      return value < 0n ? `${value}` : `+${value}`;
    case 'number':
      if (Number.isNaN(value)) return '#NaN';
      if (value === Infinity) return '#Infinity';
      if (value === -Infinity) return '#-Infinity';
      return value;
    case 'string':
      return value;
    case 'boolean':
      return value;
    case 'symbol':
      return `%${value.description ?? ''}`;
    case 'function':
      return isRemotable(value) ? describe(value) : '#function';
    default:
      break;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.has(object)) return '#cycle';
  if (object instanceof Error) return { error: object.message };
  if (object instanceof Promise) return '&promise';
  if (isRemotable(object)) return describe(object);
  const inside = new Set(ancestors).add(object);
  if (Array.isArray(object)) {
    return Promise.all(object.map(item => toModelValue(item, describe, inside)));
  }
  const entries = await Promise.all(
    Object.entries(object).map(
      async ([key, inner]) => [key, await toModelValue(inner, describe, inside)] as const,
    ),
  );
  return Object.fromEntries(entries);
};

export const renderForModel = async (
  value: unknown,
  describe: DescribeRemotable = describeRemotable,
): Promise<string> => {
  const modelValue = await toModelValue(value, describe, new Set());
  return JSON.stringify(modelValue);
};
harden(renderForModel);

/** The rendering of a failed tool call. */
export const renderError = (error: unknown): string =>
  JSON.stringify({ error: describeError(error) });
harden(renderError);
