/** One line per message, for error messages and logs. */
import type { MessageRecord } from './types.js';

export const describeMessage = (record: MessageRecord): string => {
  const from = record.from.slice(0, 8);
  switch (record.type) {
    case 'package': {
      const text = record.strings
        .map((part, index) =>
          index < record.names.length ? `${part}@${record.names[index]}` : part,
        )
        .join('');
      return `#${record.number} package from ${from}…: ${JSON.stringify(text)}`;
    }
    case 'request':
    case 'form':
      return `#${record.number} ${record.type} from ${from}…: ${JSON.stringify(record.description)}`;
    case 'value':
      return `#${record.number} value from ${from}…`;
    default:
      return `#${record.number} ${record.type} from ${from}…: ${JSON.stringify(record.source.slice(0, 80))}`;
  }
};
harden(describeMessage);
