/**
 * What one step of the conformance sequence observed, reduced to plain JSON
 * that two daemons can be compared on: ids, locators, dates and message ids
 * become placeholders, remotables their interface name, bigints `<n>n`.
 */
import { passStyleOf } from '@endo/pass-style';
import { describeError } from '../providers/describe-error.js';

export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

export interface Outcome {
  readonly step: string;
  /** `ok` with the value, or `error` with the error's masked message. */
  readonly ok: boolean;
  readonly value: Plain;
}

const FORMULA_ID = /\b[0-9a-f]{64,128}:[0-9a-f]{64,128}\b/g;
const LOCATOR = /endo:\/\/[0-9a-f]+\/[^\s"'`,)]*/g;
const LONG_HEX = /\b[0-9a-f]{32,}\b/g;
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** Masks what differs between any two runs (ids, locators, random numbers). */
const maskText = (text: string): string =>
  text.replace(LOCATOR, '<locator>').replace(FORMULA_ID, '<id>').replace(LONG_HEX, '<hex>');

const interfaceName = (value: object): string => {
  const tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
  return typeof tag === 'string' ? tag.replace(/^Alleged: /, '') : 'remotable';
};

export const plain = (value: unknown): Plain => {
  if (value === undefined) return '<undefined>';
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') {
    if (ISO_DATE.test(value)) return '<date>';
    return maskText(value);
  }
  if (value instanceof Error) return `<error ${maskText(value.message)}>`;
  let style: string;
  try {
    style = passStyleOf(value as never);
  } catch {
    style = typeof value;
  }
  if (style === 'remotable') return `<remotable ${interfaceName(value)}>`;
  if (style === 'promise') return '<promise>';
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries.map(([key, item]) => [key, plain(item)]));
  }
  return `<${typeof value}>`;
};
harden(plain);

// A guard's message shows the value only under a debugging lockdown ("number 1" or "number (a number)").
const GUARD_VALUE = /(arg \d+: )\S+ .*? (- Must be)/g;

export const errorText = (error: unknown): string =>
  maskText(describeError(error)).replace(GUARD_VALUE, '$1<value> $2');
harden(errorText);
