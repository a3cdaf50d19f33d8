/**
 * `endo://` locators as the newest daemon writes them into messages:
 * `endo://<node>/<formula number>?type=<formula type>` (connection hints, when
 * there are any, follow the number as `@`-separated path parts).
 */
import { isFormulaId, parseFormulaId } from './formula-id.js';
import type { FormulaId } from './types.js';

export const formatLocator = (id: FormulaId, type: string): string => {
  const { number, node } = parseFormulaId(id);
  return `endo://${node}/${number}?type=${encodeURIComponent(type)}`;
};
harden(formatLocator);

/** The formula id a locator names; also reads the older `endo://<node>/?id=<number>` form. */
export const idFromLocator = (locator: string): FormulaId => {
  let url: URL;
  try {
    url = new URL(locator);
  } catch {
    throw Error(`Invalid locator ${JSON.stringify(locator)}: Invalid URL.`);
  }
  const [number] = url.pathname.replace(/^\//, '').split('@');
  const id = `${number || url.searchParams.get('id')}:${url.host}`;
  if (url.protocol !== 'endo:' || !isFormulaId(id))
    throw Error(`Invalid locator ${JSON.stringify(locator)}`);
  return id;
};
harden(idFromLocator);
