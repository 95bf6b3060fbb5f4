// The end of every sign-in that hands out tokens (password, magic link, MFA,
// passkey, OAuth): the answer checked, the tokens stored, the redirect after.
//
// Any sign-in may answer MULTI_FACTOR_AUTHENTICATION_REQUIRED. The reference
// SDK then asks for the code with window.prompt(); we return the error as a
// Result instead, with the attempt code in `details.attempt_code`, and the app
// finishes with signInWithMfa(totp, attemptCode) once it has the six digits (mfa.ts).
import { isKnownError } from "../../../generated/known-error-guard.js";
import type { KnownErrorCode, KnownErrorOf } from "../../../generated/known-errors.js";
import type { components } from "../../../generated/schema.js";
import { callOf, type CallOptions } from "../call-options.js";
import { StackAssertionError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { Result } from "../result.js";
import { resultOf } from "../result-of.js";

/** Any sign-in answer; only the code sign-ins (magic link, passkey, TOTP) carry `is_new_user`. */
export type SignInTokens = components["schemas"]["SignInTokens"] &
  Partial<Pick<components["schemas"]["SignInTokensWithIsNewUser"], "is_new_user">>;

/** Which after-authentication page a finished sign-in goes to. */
export type AfterAuthKind = "sign-in" | "sign-up";

/**
 * Navigation after a sign-in, given by the app (its redirect module knows
 * `after_auth_return_to` and the after-sign-in / after-sign-up URLs).
 */
export interface AfterAuthRedirects {
  /** `options.signal` is the sign-in call's: it cuts the redirect's wait short. */
  readonly redirectAfter: (kind: AfterAuthKind, options?: CallOptions) => Promise<void>;
}

/**
 * The options of a sign-in that finishes with tokens (magic link, MFA): stay on
 * the page, and cancel the call.
 *
 * @example
 * ```ts
 * const result = await app.signInWithMagicLink(code, { noRedirect: true });
 * if (result.status === "error") showError(result.error);
 * else router.push("/welcome");
 * ```
 */
export interface SignInOptions extends CallOptions {
  /** Stay on the page after signing in (the reference SDK's option). */
  readonly noRedirect?: boolean | undefined;
}

/**
 * Runs a call that answers sign-in tokens. The known errors of `codes`, and
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED, come back as error Results; anything
 * else is thrown.
 */
export async function signInResultOf<C extends KnownErrorCode>(
  call: () => Promise<{ data?: SignInTokens | undefined }>,
  codes: readonly C[],
): Promise<Result<SignInTokens, KnownErrorOf<C | "MULTI_FACTOR_AUTHENTICATION_REQUIRED">>> {
  const result = await resultOf(async () => tokensOf((await call()).data), [...codes, "MULTI_FACTOR_AUTHENTICATION_REQUIRED"]);
  if (result.status === "error" && isKnownError(result.error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) {
    // Without its attempt code the error cannot be completed: that is a broken answer, not a second factor to ask for.
    // The wire is not trusted to match the document, hence the check of a field typed string.
    const attemptCode: unknown = result.error.details?.attempt_code;
    if (typeof attemptCode !== "string" || attemptCode === "") {
      throw new StackAssertionError("The service asked for a second factor without an attempt code (details.attempt_code)", {
        cause: result.error,
      });
    }
  }
  return result;
}

/** The tokens of a sign-in answer, or an assertion error naming what is missing. */
export function tokensOf(data: SignInTokens | undefined): SignInTokens {
  if (
    typeof data?.access_token !== "string" ||
    data.access_token === "" ||
    typeof data.refresh_token !== "string" ||
    data.refresh_token === ""
  ) {
    throw new StackAssertionError("A sign-in answer carried no access_token and refresh_token");
  }
  return data;
}

/**
 * Stores the tokens of a sign-in and, unless `noRedirect`, goes to the
 * after-sign-in page, or to after-sign-up for a user the sign-in created.
 */
export async function completeSignIn(
  ctx: ClientAppContext,
  tokens: SignInTokens,
  kind: AfterAuthKind,
  options: SignInOptions,
  redirects: AfterAuthRedirects,
): Promise<Result<undefined, never>> {
  ctx.signIn({ access_token: tokens.access_token, refresh_token: tokens.refresh_token });
  if (!options.noRedirect) await redirects.redirectAfter(kind, callOf(options));
  return Result.ok(undefined);
}
