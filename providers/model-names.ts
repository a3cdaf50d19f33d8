/**
 * What a model's name says: the same model under Ollama's default tag
 * (`qwen3` and `qwen3:latest`), and a model that makes embeddings, not chat
 * (servers list them beside chat models: Ollama's `nomic-embed-text`,
 * OpenAI's `text-embedding-3-small`, `bge-m3`, `all-minilm`, …), which is
 * never chosen to chat with.
 */

const withoutLatest = (name: string) => name.replace(/:latest$/, '');

export const sameModel = (a: string, b: string): boolean => withoutLatest(a) === withoutLatest(b);
harden(sameModel);

const EMBEDDING =
  /embed|^(?:[\w.-]+\/)?(?:bge-|gte-|e5-|all-minilm|paraphrase-|snowflake-arctic-embed|jina-embeddings)/i;

export const isEmbeddingModel = (name: string): boolean => EMBEDDING.test(name);
harden(isEmbeddingModel);

/** The first model of the list that is not an embedding model. */
export const firstChatModel = (models: readonly string[]): string | undefined =>
  models.find(name => !isEmbeddingModel(name));
harden(firstChatModel);
