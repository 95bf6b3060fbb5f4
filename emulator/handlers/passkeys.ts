// Passkeys (wire contract §9; SPEC §4): registration and sign-in options whose
// relying-party id is the service's placeholder, each with a code that ties the
// answer to its challenge, and the answers verified for real with
// @simplewebauthn/server. As the service does it: the expected rp id is the
// hostname of the origin the client reports (clientDataJSON), once that origin
// passes the project's domain check; a user has at most one passkey; the code
// is spent before the answer is verified; a verified sign-in moves the
// credential's counter and asks a TOTP user for the second factor.
import type { EmulatorContext, EmulatorRequest, Handlers } from "../engine/context.js";
import { EmulatorError, fail, internalError } from "../engine/errors.js";
import type { PasskeyRecord, ProjectRecord, Store } from "../engine/store.js";
import { randomId } from "../engine/tokens.js";
import { primaryChannelOf } from "../engine/views.js";
import { mfaRequired, redeem, requiresMfa, signedInUser, signInTokens } from "./auth-shared.js";
import { checkCallbackUrl, CODE_LIFETIME_MS } from "./common.js";

/** What the service puts where the relying-party id goes; the client substitutes its hostname. */
export const RP_ID_SENTINEL = "THIS_VALUE_WILL_BE_REPLACED.example.com";
/** The ceremonies' timeout the service sets. */
const CEREMONY_TIMEOUT_MS = 60_000;
/** EdDSA, ES256, RS256: what the service's WebAuthn library offers (and the document shows). */
const ALGORITHMS = [-8, -7, -257];
/** The user name when the user has neither a display name nor an e-mail, as the service words it. */
const NAMELESS_USER = "Stack Auth User";

// Loaded on first use: an emulator that never sees a passkey (e.g. behind msw in a browser) does not load WebAuthn code.
const webauthn = () => import("@simplewebauthn/server");
const webauthnHelpers = () => import("@simplewebauthn/server/helpers");

type Json = Record<string, unknown>;

// THE FIXED CHALLENGE (a control switch)

const fixedChallenges = new WeakMap<Store, string>();
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Makes every ceremony of this emulator use `challenge` (base64url, as
 * `options_json.challenge` shows it), so that a test can compute its answers
 * before asking; null goes back to random challenges. (The service's test
 * switch fixes it to "MOCK", i.e. `TU9DSw`.)
 */
export function setFixedChallenge(store: Store, challenge: string | null): void {
  if (challenge === null) {
    fixedChallenges.delete(store);
    return;
  }
  if (typeof challenge !== "string" || !BASE64URL.test(challenge)) {
    throw new RangeError(
      `A fixed passkey challenge must be a non-empty base64url string (as options_json.challenge shows it), not ${JSON.stringify(challenge)}`,
    );
  }
  fixedChallenges.set(store, challenge);
}

export function fixedChallengeOf(store: Store): string | null {
  return fixedChallenges.get(store) ?? null;
}

async function challengeOption(store: Store): Promise<{ challenge?: Uint8Array<ArrayBuffer> }> {
  const fixed = fixedChallengeOf(store);
  if (fixed === null) return {};
  const { isoBase64URL } = await webauthnHelpers();
  return { challenge: isoBase64URL.toBuffer(fixed) };
}

// CHECKS

function requirePasskeys(project: ProjectRecord): void {
  if (!project.config.passkey_enabled) throw fail("PASSKEY_AUTHENTICATION_NOT_ENABLED");
}

const registrationFailed = (message: string) => fail("PASSKEY_REGISTRATION_FAILED", undefined, message);
const authenticationFailed = (message: string) => fail("PASSKEY_AUTHENTICATION_FAILED", undefined, message);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The origin the client reports in the answer's clientDataJSON, parsed; null when there is none to read. */
async function reportedOrigin(answer: Json): Promise<URL | null> {
  const response = answer["response"];
  const clientData = isObject(response) ? response["clientDataJSON"] : undefined;
  if (typeof clientData !== "string") return null;
  try {
    const { decodeClientDataJSON } = await webauthnHelpers();
    return new URL(decodeClientDataJSON(clientData).origin);
  } catch {
    return null;
  }
}

/** Registration: the origin must be one a redirect may go to (a trusted domain, or localhost where allowed). */
function registrationOriginAllowed(project: ProjectRecord, origin: URL): boolean {
  try {
    checkCallbackUrl(project, origin.origin);
    return true;
  } catch (error) {
    if (error instanceof EmulatorError) return false;
    throw error;
  }
}

/**
 * Sign-in (and 2.8.11's registration, `step` "registration") checks the origin its own way: `localhost` when the
 * project allows it, else exactly a trusted domain's origin; both refuse as PASSKEY_AUTHENTICATION_FAILED.
 */
function checkExactOrigin(project: ProjectRecord, origin: URL, step: "authentication" | "registration" = "authentication"): void {
  const failed = `Passkey ${step} failed because`;
  if (origin.hostname === "localhost") {
    if (!project.config.allow_localhost) throw authenticationFailed(`${failed} localhost is not allowed`);
    return;
  }
  const trusted = project.config.domains.some(({ domain }) => {
    try {
      return new URL(domain).origin === origin.origin;
    } catch {
      return false;
    }
  });
  if (!trusted) throw authenticationFailed(`${failed} the origin is not allowed`);
}

/**
 * The passkey with this credential id in the project. One whose user turned
 * passkey sign-in off (the service deletes the passkey then) is dropped here
 * and counts as not found.
 */
function passkeyOf(ctx: EmulatorContext, projectId: string, credentialId: string): PasskeyRecord | undefined {
  for (const passkey of ctx.store.passkeysByCredential(projectId, credentialId)) {
    const user = ctx.store.user(passkey.user_id);
    if (user && user.project_id === projectId && user.passkey_auth_enabled) return passkey;
    ctx.store.deletePasskey(passkey.id);
  }
  return undefined;
}

function codeOf(request: EmulatorRequest): string {
  return (request.body as { code: string }).code;
}

// THE OPERATIONS

export const passkeyHandlers = {
  async initiatePasskeyRegistration(request, ctx) {
    const user = signedInUser(request);
    const { project } = request;
    requirePasskeys(project);
    const { generateRegistrationOptions } = await webauthn();
    const { isoUint8Array } = await webauthnHelpers();
    const email = primaryChannelOf(ctx.store, user.id)?.value ?? null;
    const name = user.display_name || email || NAMELESS_USER;
    const generated = await generateRegistrationOptions({
      rpName: project.display_name,
      rpID: RP_ID_SENTINEL,
      // The user's id as the user handle: a browser keeps one passkey per user and rp id.
      userID: isoUint8Array.fromUTF8String(user.id),
      userName: name,
      userDisplayName: name,
      ...(await challengeOption(ctx.store)),
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
      timeout: CEREMONY_TIMEOUT_MS,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    // The service leaves out an empty `hints`.
    const { hints, ...withoutHints } = generated;
    const options = hints && hints.length > 0 ? generated : withoutHints;
    const code = ctx.issueCode({
      projectId: project.id,
      kind: "passkey_registration",
      recipient: email ?? "",
      callbackUrl: null,
      lifetimeMs: CODE_LIFETIME_MS.passkey_registration,
      data: { user_handle: generated.user.id, challenge: generated.challenge },
    });
    return { body: { options_json: options, code } };
  },

  async registerPasskey(request, ctx) {
    const { project } = request;
    const credential = (request.body as { credential: Json }).credential;
    // As the service's code handler: the code is spent first, whatever becomes of the credential.
    const record = redeem(request, ctx, "passkey_registration", codeOf(request), true);
    requirePasskeys(project);
    const user = request.user;
    if (!user) throw fail("USER_AUTHENTICATION_REQUIRED");

    const origin = await reportedOrigin(credential);
    if (!origin) throw registrationFailed("Passkey registration failed because the origin is not allowed");
    if (ctx.profile.passkeyRegistrationOrigins === "exact-domain") checkExactOrigin(project, origin, "registration");
    else if (!registrationOriginAllowed(project, origin))
      throw registrationFailed("Passkey registration failed because the origin is not allowed");
    const { verifyRegistrationResponse } = await webauthn();
    // The service does not catch what the verification throws (another challenge, origin or rp id, a malformed
    // answer): that is its generic 500. Only an answer that verifies as false is PASSKEY_REGISTRATION_FAILED.
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await verifyRegistrationResponse({
        response: credential as unknown as Parameters<typeof verifyRegistrationResponse>[0]["response"],
        expectedChallenge: String(record.data["challenge"]),
        expectedOrigin: origin.origin,
        expectedRPID: origin.hostname,
        expectedType: "webauthn.create",
        requireUserVerification: false,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch {
      throw internalError(request);
    }
    if (!verification.verified) throw registrationFailed("Passkey registration failed because the verification response is invalid");
    const info = verification.registrationInfo;

    const { isoBase64URL } = await webauthnHelpers();
    // One passkey per user: a new one replaces the old.
    for (const passkey of ctx.store.passkeysOf(user.id)) if (passkey.project_id === project.id) ctx.store.deletePasskey(passkey.id);
    ctx.store.insert("passkeys", {
      id: randomId(),
      project_id: project.id,
      user_id: user.id,
      credential_id: info.credential.id,
      public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      created_at_millis: ctx.now(),
    });
    ctx.store.updateUser(user.id, { passkey_auth_enabled: true });
    return { body: { user_handle: info.credential.id } };
  },

  async initiatePasskeyAuthentication(request, ctx) {
    const { project } = request;
    requirePasskeys(project);
    const { generateAuthenticationOptions } = await webauthn();
    const options = await generateAuthenticationOptions({
      rpID: RP_ID_SENTINEL,
      userVerification: "preferred",
      ...(await challengeOption(ctx.store)),
      allowCredentials: [],
      timeout: CEREMONY_TIMEOUT_MS,
    });
    const code = ctx.issueCode({
      projectId: project.id,
      kind: "passkey_authentication",
      recipient: "",
      callbackUrl: null,
      lifetimeMs: CODE_LIFETIME_MS.passkey_authentication,
      data: { challenge: options.challenge },
    });
    return { body: { options_json: options, code } };
  },

  async signInWithPasskey(request, ctx) {
    const { project } = request;
    const answer = (request.body as { authentication_response: Json }).authentication_response;
    const record = redeem(request, ctx, "passkey_authentication", codeOf(request), true);
    requirePasskeys(project);

    const credentialId = answer["id"];
    const passkey = typeof credentialId === "string" ? passkeyOf(ctx, project.id, credentialId) : undefined;
    if (!passkey) throw authenticationFailed("Passkey not found");
    const origin = await reportedOrigin(answer);
    if (!origin) throw authenticationFailed("Failed to verify passkey authentication response");
    checkExactOrigin(project, origin);

    const { verifyAuthenticationResponse } = await webauthn();
    const { isoBase64URL } = await webauthnHelpers();
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await verifyAuthenticationResponse({
        response: answer as unknown as Parameters<typeof verifyAuthenticationResponse>[0]["response"],
        expectedChallenge: String(record.data["challenge"]),
        expectedOrigin: origin.origin,
        expectedRPID: origin.hostname,
        credential: { id: passkey.credential_id, publicKey: isoBase64URL.toBuffer(passkey.public_key), counter: passkey.counter },
        requireUserVerification: false,
      });
    } catch {
      // A wrong challenge, origin or rp id, a counter that did not move on, a malformed answer.
      throw authenticationFailed("Failed to verify passkey authentication response");
    }
    if (!verification.verified) {
      throw authenticationFailed(
        "The signature of the authentication response could not be verified with the stored public key tied to this credential ID",
      );
    }
    ctx.store.updatePasskey(passkey.id, { counter: verification.authenticationInfo.newCounter });

    const user = ctx.store.user(passkey.user_id);
    if (!user) throw authenticationFailed("Passkey not found");
    if (requiresMfa(user)) throw mfaRequired(ctx, project, user, false);
    return { body: { ...(await signInTokens(ctx, user)), is_new_user: false } };
  },
} satisfies Handlers;
