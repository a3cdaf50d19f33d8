/**
 * The bench's side of the tokenizer process (`qwen-tokenizer-process.ts`):
 * starts it, asks it for the token ids of texts, and stops it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface QwenTokenizer {
  /** Token ids of each text. */
  encode(texts: string[]): Promise<number[][]>;
  count(text: string): Promise<number>;
  close(): void;
}

export const startQwenTokenizer = async (): Promise<QwenTokenizer> => {
  const child: ChildProcess = fork(
    fileURLToPath(new URL('./qwen-tokenizer-process.js', import.meta.url)),
    [],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const pending = new Map<number, (ids: number[][]) => void>();
  let asked = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', code => reject(new Error(`the tokenizer process exited (${String(code)})`)));
    child.on('message', (answer: { ready?: boolean; id?: number; ids?: number[][] }) => {
      if (answer.ready === true) resolve();
      else if (answer.id !== undefined) {
        pending.get(answer.id)?.(answer.ids ?? []);
        pending.delete(answer.id);
      }
    });
  });
  child.removeAllListeners('exit');
  const encode = (texts: string[]) =>
    new Promise<number[][]>(resolve => {
      asked += 1;
      pending.set(asked, resolve);
      child.send({ id: asked, texts });
    });
  return {
    encode,
    count: async text => (await encode([text]))[0]?.length ?? 0,
    close: () => {
      child.disconnect();
      child.kill();
    },
  };
};
harden(startQwenTokenizer);
