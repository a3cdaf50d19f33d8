/**
 * The chat's light markup — `*bold*`, `/italic/`, `_underline_`, `~strike~` —
 * turned into terminal styles. A marker counts only at word edges, so paths
 * (`/tmp/x`), globs (`*.ts`) and snake_case names stay as they are.
 */

const styles: Record<string, [string, string]> = {
  '*': ['\x1b[1m', '\x1b[22m'],
  '/': ['\x1b[3m', '\x1b[23m'],
  _: ['\x1b[4m', '\x1b[24m'],
  '~': ['\x1b[9m', '\x1b[29m'],
};

// Opening marker after a line start, space or opening punctuation; content
// starts and ends with a non-space and holds no marker of its own kind; the
// closing marker is followed by an end, space or closing punctuation.
const pattern = /(^|[\s([{"'])([*/_~])(?=\S)([^\n]*?\S)\2(?=$|[\s)\]}.,;:!?"'])/g;

/** Control characters a message must not smuggle into the terminal (newline and tab stay). */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's job
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f\x9b]/g;

export const stripControl = (text: string): string => text.replace(CONTROL, '');
harden(stripControl);

export const renderQuasiMarkdown = (text: string): string =>
  stripControl(text).replace(pattern, (whole, before: string, marker: string, content: string) => {
    if (content.includes(marker)) return whole;
    const [on, off] = styles[marker]!;
    return `${before}${on}${content}${off}`;
  });
harden(renderQuasiMarkdown);
