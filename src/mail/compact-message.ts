/**
 * A compact view of a message for `listMessages`: what the model needs to
 * act on it (number, type, parties by pet name, date, text or source, edge
 * names, replyTo), without promises, remotes or raw formula ids.
 */
import type { NameOf } from './sender-names.js';
import { cut, packageText, pathList, stringList, type MessageRecord } from './message-record.js';

export interface CompactMessage {
  number: unknown;
  type: string;
  from: string;
  to: string;
  date?: string;
  text?: string;
  description?: string;
  source?: string;
  endowments?: string[];
  edgeNames?: string[];
  replyTo?: string;
  resultName?: string;
  workerName?: string;
}

export const compactMessage = async (
  message: MessageRecord,
  nameOf: NameOf,
): Promise<CompactMessage> => {
  const [from, to] = await Promise.all([nameOf(message.from), nameOf(message.to)]);
  const type = typeof message.type === 'string' ? message.type : 'unknown';
  const view: CompactMessage = { number: message.number, type, from, to };
  if (typeof message.date === 'string') view.date = message.date;
  if (typeof message.replyTo === 'string') view.replyTo = message.replyTo;
  if (type === 'package') {
    view.text = packageText(message);
    const names = stringList(message.names);
    if (names.length > 0) view.edgeNames = names;
  } else if (type === 'request') {
    view.description = typeof message.description === 'string' ? message.description : '';
  } else if (typeof message.source === 'string') {
    view.source = cut(message.source, 1_000);
    view.endowments = endowments(message);
    if (typeof message.resultName === 'string') view.resultName = message.resultName;
    if (typeof message.workerName === 'string') view.workerName = message.workerName;
  }
  return view;
};
harden(compactMessage);

/** `codeName <- edgeName` for each value a proposal's code is given. */
export const endowments = (message: MessageRecord): string[] => {
  const codeNames = stringList(message.codeNames);
  const edges = stringList(message.edgeNames);
  const paths = edges.length > 0 ? edges : pathList(message.petNamePaths);
  return codeNames.map((codeName, index) => `${codeName} <- ${paths[index] ?? '?'}`);
};
harden(endowments);
