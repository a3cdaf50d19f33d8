/**
 * What the greeting says about the model: which one is in use and how it
 * was chosen, what else the server offers, how to choose (LAL_MODEL), and
 * the fallback servers.
 */
import type { Provider } from './types.js';
import { isEmbeddingModel, sameModel } from './model-names.js';

/** The greeting's words on the model: which one, how chosen, what else there is, how to choose. */
export const describeModelChoice = (provider: Provider): string => {
  const choice = provider.choice;
  const parts = [`I think with ${provider.model} (${provider.kind})`];
  // A server that lists this model alone (llama.cpp's llama-server, the double of --demo) offers no other to choose.
  const only = choice?.offered.length === 1 && sameModel(choice.offered[0]!, provider.model);
  if (choice?.source === 'LAL_MODEL') parts[0] += ', as LAL_MODEL says';
  else if (choice?.source === 'detected')
    parts[0] += only
      ? ', the only model the server lists'
      : choice.passedOver === undefined || choice.passedOver.length === 0
        ? ', the first model the server lists'
        : `, the first chat model the server lists (${choice.passedOver.join(', ')} ${choice.passedOver.length === 1 ? 'is an embedding model' : 'are embedding models'})`;
  else if (choice?.source === 'default')
    parts[0] += `, the default${choice.problem === undefined ? '' : ` (${choice.problem})`}`;
  const others = (choice?.offered ?? []).filter(
    name => !sameModel(name, provider.model) && !isEmbeddingModel(name),
  );
  if (choice?.problem !== undefined && choice.source !== 'default') {
    // The check found something wrong with the model named or the server: that, not a menu.
    parts.push(choice.problem);
  } else if (others.length > 0) {
    const shown = others.slice(0, 12);
    parts.push(
      `The server also offers ${shown.join(', ')}${others.length > shown.length ? ` and ${others.length - shown.length} more` : ''}; set LAL_MODEL to choose one.`,
    );
  } else if (choice !== undefined && choice.source !== 'LAL_MODEL') {
    if (!only) parts.push('Set LAL_MODEL to choose another.');
    else if (provider.kind === 'ollama')
      parts.push('`ollama pull <model>` adds another; LAL_MODEL then chooses it.');
  }
  const fallbacks = (provider.chain ?? []).slice(1);
  if (fallbacks.length > 0)
    parts.push(
      `If it fails I fall back to ${fallbacks.map(link => `${link.model} at ${link.host}`).join(', then ')}.`,
    );
  return `${parts[0]}.${parts.length > 1 ? ` ${parts.slice(1).join(' ')}` : ''}`;
};
harden(describeModelChoice);
