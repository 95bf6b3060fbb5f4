// The refresh-token grant (wire contract §5): a form POST to the token endpoint
// with client_secret_post authentication and none of the x-stack-* headers.
import { isKnownError } from "../../generated/known-error-guard.js";
import { API_PREFIX } from "../constants.js";
import type { Environment } from "../platform/env.js";
import { readKnownError } from "./known-error-answer.js";
import { checkAnswer } from "./response.js";
import type { Origins } from "./origins.js";
import type { RefreshAccessToken } from "../sessions/session.js";
import { httpError, sendWithRetries, type TransportPolicy } from "./transport.js";

export interface RefreshContext {
  readonly env: Environment;
  readonly policy: TransportPolicy;
  readonly baseUrl: string;
  readonly projectId: string;
  readonly publishableClientKey?: string | undefined;
  /** The API's origins when the client fails over: the refresh fails over as every request does. */
  readonly origins?: Origins | undefined;
}

const OPERATION = "exchangeOAuthToken";

export function refreshWithTokenEndpoint(c: RefreshContext): RefreshAccessToken {
  const url = `${c.baseUrl}${API_PREFIX}/auth/oauth/token`;
  const describe = `POST ${url}`;
  return async (refreshToken) => {
    const body = new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: c.projectId,
      client_secret: c.publishableClientKey ?? "",
    });
    const answer = await sendWithRetries(
      c.env,
      c.policy,
      async () => ({
        url,
        method: "POST",
        headers: new Headers({ "content-type": "application/x-www-form-urlencoded" }),
        body,
      }),
      // The one POST resent after a network error or a 5xx (at another origin too): a repeated refresh does no harm.
      { resendable: true, describe, operationId: OPERATION, origins: c.origins },
    );
    const known = readKnownError(answer, OPERATION);
    if (known) {
      if (isKnownError(known, "REFRESH_TOKEN_ERROR")) return null;
      throw known;
    }
    if (answer.status < 200 || answer.status > 299) throw httpError(describe, answer);
    // The shape check makes sure the access token is a non-empty, header-safe string.
    const checked = checkAnswer(answer, OPERATION, OPERATION) as { readonly access_token: string };
    return checked.access_token;
  };
}
