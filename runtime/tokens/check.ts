// Checks every token that enters a store, whatever its source.

import { StackConfigurationError } from "../errors.js";
import type { StoredTokens } from "./store.js";

/**
 * Rejects the literal string "undefined" as a token (wire contract §4). It is
 * what `${process.env.X}` yields when X is unset, and sending it would look like
 * a valid but unknown token instead of a configuration mistake.
 */
export function assertUsableTokens(tokens: StoredTokens, source: string): void {
  for (const kind of ["refresh", "access"] as const) {
    const token = kind === "refresh" ? tokens.refreshToken : tokens.accessToken;
    if (token === "undefined") {
      throw new StackConfigurationError(
        `The ${kind} token from ${source} is the string "undefined", usually an environment variable that is not set. ` +
          `Pass null when there is no ${kind} token.`,
      );
    }
  }
}
