/**
 * A fake of the chat's screen (sim/chat/screen.ts) that records what the presenter tells it, for
 * the tests of what `npm start` shows (docs/behaviour.md, "The simulator"): in `seen`, every print
 * and status in order ("print …", "status …", "status idle"); in `printed`, the printed lines
 * alone; in `statuses`, the statuses alone (undefined: idle). `tty`: whether it says it is a
 * terminal (a status line shows only there).
 */
import type { Screen } from '../../sim/chat/screen.js';

export const recordingScreen = (tty = true) => {
  const seen: string[] = [];
  const printed: string[] = [];
  const statuses: (string | undefined)[] = [];
  const screen: Screen = {
    tty,
    print: (_kind, ...texts) => {
      const line = texts.join(' ');
      printed.push(line);
      seen.push(`print ${line}`);
    },
    status: text => {
      statuses.push(text);
      seen.push(`status ${text ?? 'idle'}`);
    },
    attachPrompt: () => {},
    takeBackEcho: () => {},
    close: () => {},
  };
  return { seen, printed, statuses, screen };
};
