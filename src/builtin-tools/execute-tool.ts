/**
 * Runs one decoded call for the turn's loop (src/loop/run-tool-call.ts takes it as its
 * `execute`): a built-in through the dispatch's one switch (./dispatch-builtin-tool.ts), a
 * FaeTool the turn holds through its far reference, and a name that is neither gets the
 * tools the request offered and the nearest of them. A FaeTool that can be stopped
 * (`executeUntil`, behaviour 6.7) is given a promise that settles when the call's `stop`
 * aborts; any other is called with `execute(args)` alone, as upstream's guard demands.
 */
import { E } from '@endo/far';
import type { DecodedCall } from '../agent-tools/decode-call.js';
import { unknownToolText } from '../agent-tools/unknown-tool.js';
import { dispatchBuiltinTool, type BuiltinContext } from './dispatch-builtin-tool.js';

/** A promise that fulfils, with why, once `stop` aborts: what crosses to the tool's vat (a signal cannot). */
const whenStopped = (stop: AbortSignal): Promise<string> =>
  new Promise(resolve => {
    const why = () => resolve(typeof stop.reason === 'string' ? stop.reason : 'it was stopped');
    if (stop.aborted) why();
    // An abort event fires once, so the listener needs no removing.
    else stop.addEventListener('abort', why);
  });

export const executeTool = async (
  { call, values, builtin, grouped }: DecodedCall,
  context: BuiltinContext,
  offered: readonly string[],
  stop: AbortSignal,
): Promise<unknown> => {
  if (builtin !== undefined) return dispatchBuiltinTool(call.name, builtin, grouped, context);
  const dynamic = context.tools.find(call.name);
  // The request's own list: a tool the policy withholds is not named to the model.
  if (dynamic === undefined) throw new Error(unknownToolText(call.name, offered));
  return dynamic.stoppable
    ? E(dynamic.tool).executeUntil(values, whenStopped(stop))
    : E(dynamic.tool).execute(values);
};
harden(executeTool);
