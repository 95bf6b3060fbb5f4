// Passkey sign-in and registration (wire contract §9; SPEC §4, §5) with
// @simplewebauthn/browser. The ceremonies are injectable so that the flows can
// be tested without a browser's WebAuthn.
import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import {
  KnownErrors,
  type InvalidTotpCode,
  type MultiFactorAuthenticationRequired,
  type PasskeyAuthenticationFailed,
  type PasskeyRegistrationFailed,
  type PasskeyWebAuthnError,
} from "../../../generated/known-errors.js";
import { requireBrowser } from "../../platform/browser.js";
import { callOf, checkAborted, signalOf, untilAborted, type CallOptions } from "../call-options.js";
import { StackAssertionError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import { Result } from "../result.js";
import { resultOf } from "../result-of.js";
import { accessTokenClaimsChanged } from "../token-claims.js";
import { passkeyRpId } from "./hostname.js";
import { assertRedirectAfter, type RedirectAfterSignIn } from "./oauth.js";

/** The placeholder the service puts where the relying-party id goes. */
export const RP_ID_SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";

export interface WebAuthnCeremonies {
  readonly startRegistration: typeof startRegistration;
  readonly startAuthentication: typeof startAuthentication;
}

// This module loads on first use (flows/loaders.ts), so apps that never touch passkeys do not download WebAuthn
// code. The two ceremonies are imported by name: a bundler then leaves out the rest of the library (sendSignal,
// getBrowserCapabilities, ...), which a namespace import would keep.
const platformWebAuthn: WebAuthnCeremonies = { startRegistration, startAuthentication };

/** The known errors `signInWithPasskey` answers in its Result (each on {@link KnownErrors}' page). */
export type SignInWithPasskeyError =
  | PasskeyAuthenticationFailed
  | PasskeyWebAuthnError
  | MultiFactorAuthenticationRequired
  /** In the reference's type (its MFA prompt); never returned here: MFA comes back as MultiFactorAuthenticationRequired. */
  | InvalidTotpCode;

/** The known errors `user.registerPasskey` answers in its Result (each on {@link KnownErrors}' page). */
export type RegisterPasskeyError = PasskeyRegistrationFailed | PasskeyWebAuthnError;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `{options_json, code}` of an initiate call, checked. */
function initiation(data: unknown, what: string): { options: Json; code: string } {
  if (!isObject(data) || !isObject(data.options_json) || typeof data.code !== "string" || data.code === "") {
    throw new StackAssertionError(`${what} answered without options_json and code`);
  }
  return { options: data.options_json, code: data.code };
}

function assertSentinel(found: unknown, field: string): void {
  if (found !== RP_ID_SENTINEL) {
    throw new StackAssertionError(
      `Expected returned RP ID from server to equal sentinel, but found ${String(found)} (options_json.${field})`,
    );
  }
}

/** Bytes that a base64url string (padding allowed) decodes to, or -1 when it is not base64url. */
function base64urlByteLength(value: string): number {
  const bare = value.replace(/=+$/, "");
  if (!/^[A-Za-z0-9_-]*$/.test(bare) || bare.length % 4 === 1) return -1;
  return Math.floor((bare.length * 3) / 4);
}

/** WebAuthn allows a user handle of 1 to 64 bytes; the service sends it base64url-encoded. */
function assertUserId(options: Json): void {
  const user = options.user;
  const id = isObject(user) ? user.id : undefined;
  const bytes = typeof id === "string" ? base64urlByteLength(id) : -1;
  if (bytes < 1 || bytes > 64) {
    throw new StackAssertionError(
      `The passkey user id must be 1 to 64 bytes of base64url; the service sent ${bytes < 0 ? "no valid value" : `${bytes} bytes`}`,
    );
  }
}

/**
 * A failed ceremony (the user cancelled: NotAllowedError; a timeout; no
 * authenticator; no WebAuthn in this browser). Nothing the ceremony does is a
 * network call, so whatever it throws belongs here. `code` is the DOM error's
 * name, as in the reference; the library's error stays as `cause`.
 */
function webAuthnFailure(error: unknown): PasskeyWebAuthnError {
  const message = error instanceof Error && error.message !== "" ? error.message : "The WebAuthn ceremony failed.";
  const code = error instanceof Error && error.name !== "" ? error.name : "UnknownError";
  return new KnownErrors.PasskeyWebAuthnError({ message, code }, { message, cause: error });
}

/**
 * Signs in with a passkey of this site, stores the tokens and redirects after
 * sign-in. A cancelled or failed ceremony is a PasskeyWebAuthnError result, a
 * rejected credential a PasskeyAuthenticationFailed result, and a user with
 * TOTP a MultiFactorAuthenticationRequired result (its `details.attempt_code`
 * continues with signInWithMfa). Network and other server errors are thrown as
 * they are, not disguised as authentication failures.
 */
export async function signInWithPasskey(
  ctx: ClientAppContext,
  options: { readonly redirectAfter: RedirectAfterSignIn } & CallOptions,
  webauthn: WebAuthnCeremonies = platformWebAuthn,
): Promise<Result<undefined, SignInWithPasskeyError>> {
  const browser = requireBrowser(ctx.browser, "signInWithPasskey");
  assertRedirectAfter(options, "signInWithPasskey");
  const call = callOf(options);
  const rpId = passkeyRpId(browser.location.hostname, browser.location.hostname);
  const started = await ctx.client.send("POST /auth/passkey/initiate-passkey-authentication", { body: {}, ...signalOf(call) });
  const { options: optionsJson, code } = initiation(started.data, "initiate-passkey-authentication");
  assertSentinel(optionsJson.rpId, "rpId");

  let authenticationResponse: Awaited<ReturnType<WebAuthnCeremonies["startAuthentication"]>>;
  try {
    authenticationResponse = await untilAborted(
      webauthn.startAuthentication({
        optionsJSON: { ...optionsJson, rpId } as unknown as Parameters<WebAuthnCeremonies["startAuthentication"]>[0]["optionsJSON"],
      }),
      call,
    );
  } catch (error) {
    // The caller's abort is not a failed ceremony.
    checkAborted(call);
    return Result.error(webAuthnFailure(error));
  }

  const signedIn = await resultOf(async () => {
    const { data } = await ctx.client.send("POST /auth/passkey/sign-in", {
      body: { authentication_response: authenticationResponse as unknown as Record<string, never>, code },
      ...signalOf(call),
    });
    return data;
  }, ["PASSKEY_AUTHENTICATION_FAILED", "MULTI_FACTOR_AUTHENTICATION_REQUIRED"]);
  if (signedIn.status === "error") return Result.error(signedIn.error);
  const tokens = signedIn.data;
  if (!tokens || typeof tokens.access_token !== "string" || typeof tokens.refresh_token !== "string") {
    throw new StackAssertionError("Passkey sign-in answered without an access_token and a refresh_token");
  }
  ctx.signIn(tokens);
  await options.redirectAfter({ kind: "sign-in" }, call);
  return Result.ok(undefined);
}

/**
 * Registers a passkey for the signed-in user, scoped to `hostname` (default:
 * the page's hostname), which must be this page's host or a parent domain of it.
 * A failed ceremony is a PasskeyWebAuthnError result, a credential the service
 * rejects a PasskeyRegistrationFailed result. The caller refreshes the user
 * afterwards (its passkeyAuthEnabled changes).
 */
export async function registerPasskey(
  ctx: ClientAppContext,
  options: { readonly hostname?: string } & CallOptions = {},
  webauthn: WebAuthnCeremonies = platformWebAuthn,
): Promise<Result<undefined, RegisterPasskeyError>> {
  const browser = requireBrowser(ctx.browser, "registerPasskey");
  // Checked before anything is sent: a bad option is a mistake to fix, not a retry.
  const rpId = passkeyRpId(options?.hostname ?? browser.location.hostname, browser.location.hostname);
  const call = callOf(options);
  const started = await ctx.client.send("POST /auth/passkey/initiate-passkey-registration", { body: {}, ...signalOf(call) });
  const { options: optionsJson, code } = initiation(started.data, "initiate-passkey-registration");
  const rp = optionsJson.rp;
  assertSentinel(isObject(rp) ? rp.id : undefined, "rp.id");
  assertUserId(optionsJson);

  let credential: Awaited<ReturnType<WebAuthnCeremonies["startRegistration"]>>;
  try {
    credential = await untilAborted(
      webauthn.startRegistration({
        optionsJSON: { ...optionsJson, rp: { ...(rp as Json), id: rpId } } as unknown as Parameters<
          WebAuthnCeremonies["startRegistration"]
        >[0]["optionsJSON"],
      }),
      call,
    );
  } catch (error) {
    checkAborted(call);
    return Result.error(webAuthnFailure(error));
  }

  const registered = await resultOf(
    () =>
      ctx.client.send("POST /auth/passkey/register", {
        body: { credential: credential as unknown as Record<string, never>, code },
        ...signalOf(call),
      }),
    ["PASSKEY_REGISTRATION_FAILED"],
  );
  if (registered.status === "error") return Result.error(registered.error);
  // As the official SDK does after a registration: the session's next use gets a new access token.
  accessTokenClaimsChanged(ctx);
  return Result.ok(undefined);
}
