/**
 * The one interface every text tool-call format implements, so that adding
 * the next model family is one file (and one test) plus a line in the
 * registry (./index.ts).
 */
import type { ToolSchema } from '../../../providers/types.js';

/** A call found in text: the tool's name and its arguments as JSON text. */
export interface TextCall {
  name: string;
  /** JSON text; kept raw when the model's JSON is broken, so validation can say so. */
  arguments: string;
}

/** What a format found: the calls, and the model's own words around them. */
export interface FoundCalls {
  calls: TextCall[];
  text: string;
}

/** The tools offered in this request, by name. Only these can be called from text. */
export type OfferedTools = ReadonlyMap<string, ToolSchema>;

export interface CallFormat {
  /** The family's name, as docs/comparison.md lists it. */
  family: string;
  /** A cheap look for this format's markers; parse runs only when it holds. */
  detect(text: string): boolean;
  /**
   * The calls in `text`, or undefined when it is not a well-formed instance
   * of this format after all (then the text stays text). A call naming a tool
   * that was not offered makes the whole answer text. A format whose markers
   * are unmistakable may return no calls and the words without its markup.
   */
  parse(text: string, offered: OfferedTools): FoundCalls | undefined;
}
