// The refresh-token grant (wire contract §5): a form POST to the token endpoint
// with client_secret_post authentication and none of the x-stack-* headers.
import { isKnownError } from "../generated/known-errors.js";
import { API_PREFIX } from "./constants.js";
import type { Environment } from "./env.js";
import { ResponseFormatError } from "./errors.js";
import { knownErrorOf } from "./response.js";
import type { RefreshAccessToken } from "./session.js";
import { httpError, sendWithRetries } from "./transport.js";

export interface RefreshContext {
  readonly env: Environment;
  readonly baseUrl: string;
  readonly projectId: string;
  readonly publishableClientKey?: string | undefined;
}

export function refreshWithTokenEndpoint(c: RefreshContext): RefreshAccessToken {
  const url = `${c.baseUrl}${API_PREFIX}/auth/oauth/token`;
  return async (refreshToken) => {
    const body = new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: c.projectId,
      client_secret: c.publishableClientKey ?? "",
    });
    const answer = await sendWithRetries(
      c.env,
      async () =>
        new Request(url, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
          cache: "no-store",
          credentials: "omit",
        }),
      // The one POST retried after a network error: a repeated refresh does no harm.
      { retryNetworkErrors: true, describe: `POST ${url}` },
    );
    const known = knownErrorOf(answer);
    if (known) {
      if (isKnownError(known, "REFRESH_TOKEN_ERROR")) return null;
      throw known;
    }
    if (answer.status < 200 || answer.status > 299) throw httpError(`POST ${url}`, answer);
    let accessToken: unknown;
    try {
      accessToken = (JSON.parse(answer.text) as { access_token?: unknown }).access_token;
    } catch {
      accessToken = undefined;
    }
    if (typeof accessToken !== "string" || accessToken === "") {
      throw new ResponseFormatError(
        "exchangeOAuthToken",
        answer.status,
        `exchangeOAuthToken: the token endpoint answered HTTP ${answer.status} without an access_token`,
      );
    }
    return accessToken;
  };
}
