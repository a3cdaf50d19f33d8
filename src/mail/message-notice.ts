/**
 * How a new message is shown to the model. Both personas put the whole
 * message in the notice (number, sender, text or content) so the model can
 * answer without listing its inbox first. How to answer and that handled
 * mail is dismissed are said once, in the system prompt: a notice stays in
 * the history for several turns, so every word of it is paid many times.
 */
import type { Persona } from '../config/config.js';
import { endowments } from './compact-message.js';
import { cut, packageText, stringList, type MessageRecord } from './message-record.js';

const COUNTER_PREVIEW_CHARS = 200;

const describeBody = (message: MessageRecord): string => {
  switch (message.type) {
    case 'package': {
      const names = stringList(message.names);
      const text = packageText(message);
      const attached =
        names.length > 0
          ? `\nAttached: ${names.map(name => `@${name}`).join(', ')} (keep one with mail adopt, edgeName and petName, or mail adoptTool for a tool).`
          : '';
      return `${text}${attached}`;
    }
    case 'request':
      return `A request: ${JSON.stringify(typeof message.description === 'string' ? message.description : '')}\nAnswer it with mail resolve (path) or reject (reason).`;
    default:
      return `A message of type ${JSON.stringify(String(message.type))}: ${cut(JSON.stringify(safeFields(message)), 500)}`;
  }
};

/** The plain-data fields of an unusual message, for showing it. */
const safeFields = (message: MessageRecord): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(message)) {
    if (
      ['string', 'number', 'boolean', 'bigint'].includes(typeof value) &&
      !['from', 'to'].includes(key)
    ) {
      out[key] = String(value);
    }
  }
  return out;
};

/** A proposal sent to the agent by someone else: the host's counter-proposal. */
export const counterProposalNotice = (message: MessageRecord, sender: string): string => {
  const number = String(message.number);
  const source = typeof message.source === 'string' ? message.source : '';
  const lines = [
    `COUNTER-PROPOSAL: message #${number} from ${sender} proposes different code:`,
    cut(source, COUNTER_PREVIEW_CHARS),
    `Endowments: ${endowments(message).join(', ') || 'none'}`,
    `Worker: ${typeof message.workerName === 'string' ? message.workerName : 'a new worker'}; result name: ${typeof message.resultName === 'string' ? message.resultName : 'none'}`,
    `Consider it: if it does what was asked, use it (propose it with evaluate if you need its result); otherwise reply(${number}, …) saying why not.`,
  ];
  return lines.join('\n');
};
harden(counterProposalNotice);

/** Both personas read the same notice now; the persona stays a parameter for a voice of its own. */
export const messageNotice = (
  _persona: Persona,
  message: MessageRecord,
  sender: string,
): string => {
  if (message.type === 'eval-proposal-reviewer' || message.type === 'eval-proposal-proposer') {
    return counterProposalNotice(message, sender);
  }
  const number = String(message.number);
  const body = describeBody(message);
  return `Message #${number} from ${sender}: ${body}`;
};
harden(messageNotice);
