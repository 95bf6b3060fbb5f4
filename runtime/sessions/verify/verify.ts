// Verifying an access token where it arrives, without asking the service: the
// signature against the project's published keys (jwks.ts), then `exp`, `nbf`,
// the issuer and the audience as the service sets them. Web APIs and jose only,
// so it runs in Node, browsers and edge runtimes.
//
// The service has set two forms (apps/backend/src/lib/tokens.tsx; the key sets
// in projects/[project_id]/.well-known/jwks.json/route.ts):
// - 2.8.11: `aud` the project id, `iss` https://access-token.jwt-signature.stack-auth.com
//   for every project; one key per project.
// - 2.8.86: an audience and an issuer per kind of user: `<id>` with
//   `<api>/api/v1/projects/<id>`, `<id>:restricted` with
//   `…/projects-restricted-users/<id>`, `<id>:anon` with
//   `…/projects-anonymous-users/<id>`; two keys per audience, those of the last
//   two only with `?include_restricted=true` / `?include_anonymous=true` (which
//   includes the restricted ones). The normal audience's first key is 2.8.11's.
// - Since 2.8.102 the hosted service also answers as api.hexclave.com (and its
//   dev and staging twins) and writes the host a request came through into
//   `iss`: the hosted service's tokens carry either name (settings.ts).
// A token is accepted only with the issuer that goes with its audience, and the
// restricted and anonymous audiences only when the caller accepts those users.
//
// This module is the verifier as apps see it, with its options checked as it is
// made (settings.ts). The verification itself (verification.ts: the key sets,
// jose's signature and time checks, the claims) is heavy and only servers use
// it, so it loads with the first verify().
//
// An invalid token is an expected outcome, so it comes back as an error
// Result (as the apps' expected failures do, runtime/app/result.ts); misuse
// throws a StackConfigurationError and a cancelled call rejects with its
// signal's reason.
import { throwIfAborted } from "../../platform/abort.js";
import { StackConfigurationError } from "../../errors.js";
import { lazy } from "../../platform/lazy.js";
import type { Result } from "../../app/result.js";
import type { AccessTokenClaims } from "./claims.js";
import type { AccessTokenInvalidError } from "./errors.js";
import type { KeySets } from "./jwks.js";
import { settingsOf, type Accepts, type AccessTokenVerifierOptions, type Settings } from "./settings.js";

const loadVerification = /* @__PURE__ */ lazy("token verification", () => import("./verification.js"));

export type { AccessTokenVerifierOptions } from "./settings.js";

/**
 * The options of one verification: a signal that stops waiting for the key set, and
 * whether this call accepts anonymous and restricted users' tokens (in place of the
 * verifier's setting).
 *
 * @example
 * ```ts
 * // Give up waiting for the project's keys after two seconds.
 * const result = await verifier.verify(token, { signal: AbortSignal.timeout(2_000) });
 * if (result.status === "error") console.warn(result.error.reason);
 * // A route that anonymous users may call too.
 * const guest = await verifier.verify(token, { allowAnonymous: true });
 * if (guest.status === "ok" && guest.data.isAnonymous) console.log("a guest");
 * ```
 */
export interface VerifyAccessTokenCallOptions {
  /** Cancels the wait for the key set (a fetch shared with other callers goes on for them). */
  readonly signal?: AbortSignal | null | undefined;
  /** Accept an anonymous (or restricted) user's token in this call; default the verifier's `allowAnonymous`. */
  readonly allowAnonymous?: boolean | undefined;
  /** Accept a restricted user's token in this call; default the verifier's `allowRestricted`. */
  readonly allowRestricted?: boolean | undefined;
}

/** What verifying an access token answers: its claims, or the error saying why it was refused. */
export type AccessTokenVerification = Result<AccessTokenClaims, AccessTokenInvalidError>;

/** Verifies the project's access tokens locally, against its published key set (fetched once and cached): what {@link createAccessTokenVerifier} makes. */
export interface AccessTokenVerifier {
  /**
   * The token's claims when the project signed it and it is current, else an
   * error Result with an AccessTokenInvalidError saying why not. Tokens of 2.8.11's
   * form and of today's are both read; an anonymous or restricted user's token only
   * when `allowAnonymous` / `allowRestricted` says so. Never calls `/users/me`; only
   * the project's key set is fetched, and cached. A cancelled call rejects with its
   * signal's reason.
   *
   * @example
   * ```ts
   * const result = await verifier.verify(request.headers.get("x-stack-access-token") ?? "");
   * if (result.status === "error") return new Response(result.error.reason, { status: 401 });
   * console.log(result.data.userId, result.data.expiresAt.toISOString());
   * ```
   */
  verify(token: string, options?: VerifyAccessTokenCallOptions): Promise<AccessTokenVerification>;
}

/**
 * A verifier for one project's access tokens, with its own cache of the
 * project's keys: make one per process (or per isolate) and reuse it. Throws a
 * StackConfigurationError for options that cannot work (no project id, a
 * `baseUrl` that is not http(s), a negative cache time).
 *
 * @example
 * ```ts
 * const verifier = createAccessTokenVerifier({ projectId });
 * const result = await verifier.verify(accessToken);
 * if (result.status === "ok") console.log("signed in as", result.data.userId);
 * ```
 * @see getProjectJwks
 */
export function createAccessTokenVerifier(options: AccessTokenVerifierOptions): AccessTokenVerifier {
  const settings = settingsOf(options);
  // This verifier's own key-set caches, one per kind of user, made with the first verify().
  let keySets: KeySets | undefined;
  return {
    async verify(token, callOptions) {
      throwIfAborted(callOptions?.signal);
      const accepts = acceptsOf(settings, callOptions);
      const verification = await loadVerification();
      keySets ??= verification.keySetsOf(settings);
      return verification.verifyWith(keySets, settings, accepts, token, callOptions?.signal);
    },
  };
}

/**
 * One verification, for code that keeps no verifier (an edge function). The
 * keys are cached in the module, per fetch function, base URL and project (at
 * most 100 sets per fetch), so pass a fetch that stays the same from call to
 * call, or keep a `createAccessTokenVerifier` instead. Answers the claims, or an
 * error Result with an AccessTokenInvalidError.
 *
 * @example
 * ```ts
 * const token = request.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
 * const result = await verifyAccessToken(token, { projectId });
 * if (result.status === "error") return new Response("Unauthorized", { status: 401 });
 * return Response.json({ userId: result.data.userId });
 * ```
 */
export async function verifyAccessToken(
  token: string,
  options: AccessTokenVerifierOptions & VerifyAccessTokenCallOptions,
): Promise<AccessTokenVerification> {
  const settings = settingsOf(options);
  throwIfAborted(options.signal);
  const accepts = acceptsOf(settings, options);
  const verification = await loadVerification();
  return verification.verifyWith(verification.sharedKeySetsOf(settings), settings, accepts, token, options.signal);
}

/** The kinds of user a call accepts: its own options, else the verifier's. Anonymous users are restricted users too. */
function acceptsOf(s: Settings, call: VerifyAccessTokenCallOptions | undefined): Accepts {
  const flag = (name: "allowAnonymous" | "allowRestricted", fallback: boolean): boolean => {
    const value = call?.[name];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") {
      throw new StackConfigurationError(`verify: ${name} must be true or false, got ${JSON.stringify(value)}.`);
    }
    return value;
  };
  const anonymous = flag("allowAnonymous", s.accepts.anonymous);
  return { anonymous, restricted: anonymous || flag("allowRestricted", s.accepts.restricted) };
}
