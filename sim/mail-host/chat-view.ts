/**
 * What Endo's chat UI shows of a message's words, as its inbox renders them
 * (endojs/endo 1ef30c259, packages/space-chat/src/inbox.js): a request's
 * description goes through `JSON.stringify` (so a line break shows as a
 * literal `\n`, a quote as `\"`); a package's strings, with `@name` where each
 * value is attached, are rendered as Markdown (code blocks included); a form's
 * description is shown quoted, after `form:`. Tests read messages through this
 * to check what a person actually sees.
 */
import type { MessageRecord } from './types.js';

export const chatView = (record: MessageRecord): string => {
  switch (record.type) {
    case 'package':
      return record.strings
        .map((part, index) =>
          index < record.names.length ? `${part}@${record.names[index]}` : part,
        )
        .join('');
    case 'request':
      return JSON.stringify(record.description);
    case 'form':
      return `form: ${JSON.stringify(record.description)}`;
    default:
      return '';
  }
};
harden(chatView);
