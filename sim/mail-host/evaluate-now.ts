/**
 * An evaluation that runs at once, endowments from the caller's own
 * namespace: the host's evaluate on both daemons, a guest's on the newest.
 */
import { evaluateSource } from './evaluate-source.js';
import { namePathFrom } from './pet-name.js';
import type { Agent } from './agents.js';
import type { MailBasics } from './mail-basics.js';
import type { NameOrPath } from './types.js';

export const makeEvaluateNow = ({ table }: MailBasics) => {
  const evaluateNow = async (
    self: Agent,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    resultNameOrPath?: NameOrPath,
  ): Promise<unknown> => {
    if (petNamesOrPaths.length !== codeNames.length)
      throw Error('Evaluator requires one pet name for each code name');
    const values = await Promise.all(petNamesOrPaths.map(path => self.directory.lookup(path)));
    const value = await evaluateSource(source, codeNames, values);
    const id = table.formulate({ type: 'eval', provide: () => value });
    table.remember(value, id);
    if (resultNameOrPath !== undefined)
      await self.directory.write(namePathFrom(resultNameOrPath), id);
    return value;
  };
  return evaluateNow;
};
harden(makeEvaluateNow);
