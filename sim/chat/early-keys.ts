/**
 * On a terminal, the keys typed before the prompt exists (npm start's checks, the agent
 * starting: docs/behaviour.md 10.2) are kept from the terminal's own echo and handed to the
 * prompt once it opens, which reads them as typed there (./held-until-ready.ts shows each line
 * as waiting, then as sent). With the terminal echoing them, each line stayed on the screen
 * as a raw row above those, shown twice (issue 45). Ctrl-C is still a SIGINT, as the
 * terminal would have made it: the run leaves (./leave-before-chat.ts, then ./chat.ts).
 */

const CTRL_C = 0x03;

export interface EarlyKeys {
  /** Gives what was typed to the prompt about to read the terminal (it resumes the input). */
  handOver(): void;
}

export const holdEarlyKeys = (
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  interrupt: () => void = () => void process.kill(process.pid, 'SIGINT'),
): EarlyKeys => {
  // Only where npm start draws a prompt (./chat.ts): a pipe is read as it is.
  if (input.isTTY !== true || output.isTTY !== true) return harden({ handOver: () => {} });
  const typed: Buffer[] = [];
  const onData = (chunk: Buffer) => {
    if (chunk.includes(CTRL_C)) interrupt();
    else typed.push(chunk);
  };
  // No echo, no line editing: the prompt does both once it opens (Node puts the terminal back as it leaves).
  input.setRawMode(true);
  input.on('data', onData);
  return harden({
    handOver: () => {
      input.off('data', onData);
      input.pause();
      if (typed.length > 0) input.unshift(Buffer.concat(typed));
    },
  });
};
harden(holdEarlyKeys);
