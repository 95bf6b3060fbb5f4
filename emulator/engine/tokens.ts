// Access tokens as the service issues them: ES256 JWTs signed with keys of the
// emulator's own (published as a JWKS), carrying the claims the service sets,
// in the form of the service version played (engine/profile.ts): 2.8.11's one
// issuer and camelCase claims, or 2.8.86's issuer and audience per kind of user
// with snake_case claims about the user. Refresh tokens, codes and keys are
// random strings. Time is the emulator's clock, so a test can expire tokens by
// advancing it.
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  errors as joseErrors,
  type JWK,
  type CryptoKey,
} from "jose";
import { fail } from "./errors.js";
import type { ServiceProfile } from "./profile.js";

/** Why a user is restricted, as 2.8.86 says it (tokens, users, RESTRICTED_USER_NOT_ALLOWED). */
export interface RestrictedReason {
  readonly type: "anonymous" | "email_not_verified" | "restricted_by_administrator";
}

export interface AccessClaims {
  readonly sub: string;
  readonly project_id: string;
  readonly refresh_token_id: string;
  /** From the token's audience on 2.8.86; false on 2.8.11, whose tokens do not say. */
  readonly is_anonymous: boolean;
  /** From the token on 2.8.86; null on 2.8.11. */
  readonly restricted_reason: RestrictedReason | null;
  readonly exp: number;
  readonly iat: number;
}

export interface Signer {
  readonly kid: string;
  readonly jwk: JWK;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
}

export async function createSigner(): Promise<Signer> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = randomString(16);
  // As the service publishes its keys (both versions): kty, alg, crv, x, y and kid, nothing else.
  const { kty = "EC", crv = "P-256", x = "", y = "" } = await exportJWK(publicKey);
  const jwk: JWK = { kty, alg: "ES256", crv, x, y, kid };
  return { kid, jwk, privateKey, publicKey };
}

/** The 2.8.11 issuer of every project's access tokens. */
export const GLOBAL_ISSUER = "https://access-token.jwt-signature.stack-auth.com";

/** The kinds of user 2.8.86 signs tokens for, each with its issuer, audience and keys. */
export type TokenKind = "normal" | "restricted" | "anonymous";

/** The `aud` of a kind of user's access tokens on 2.8.86 (2.8.11: always the project id). */
export function audienceOf(projectId: string, kind: TokenKind): string {
  return kind === "anonymous" ? `${projectId}:anon` : kind === "restricted" ? `${projectId}:restricted` : projectId;
}

/** The `iss` of a project's access tokens (2.8.86: per kind of user; 2.8.11: one for all). */
export function issuerOf(profile: ServiceProfile, apiOrigin: string, projectId: string, kind: TokenKind = "normal"): string {
  if (profile.accessTokens === "global-issuer") return GLOBAL_ISSUER;
  const suffix = kind === "anonymous" ? "-anonymous-users" : kind === "restricted" ? "-restricted-users" : "";
  return `${apiOrigin}/api/v1/projects${suffix}/${projectId}`;
}

/**
 * Two signing keys per audience (the first signs; the second is published
 * too, as the service does for rotation), made when first needed. 2.8.11 signs
 * with and publishes only the project audience's first. Keys live as long as
 * the emulator: they are not part of the exported state, so tokens do not
 * outlive a restart (the refresh tokens do, and get new access tokens).
 */
export class Signers {
  readonly #keys = new Map<string, Promise<readonly [Signer, Signer]>>();

  /** The audience's two keys. */
  pair(audience: string): Promise<readonly [Signer, Signer]> {
    let pair = this.#keys.get(audience);
    if (!pair) {
      pair = Promise.all([createSigner(), createSigner()]);
      this.#keys.set(audience, pair);
    }
    return pair;
  }

  /** The key that signs the audience's tokens. */
  async of(audience: string): Promise<Signer> {
    return (await this.pair(audience))[0];
  }

  /**
   * The project's published keys, `{ keys: [JWK…] }`: on 2.8.11 its one key; on
   * 2.8.86 the normal audience's two, plus the restricted audience's with
   * `includeRestricted`, plus the anonymous one's with `includeAnonymous`
   * (which implies the restricted ones).
   */
  async jwks(
    profile: ServiceProfile,
    projectId: string,
    query: { readonly includeAnonymous?: boolean; readonly includeRestricted?: boolean } = {},
  ): Promise<{ keys: JWK[] }> {
    if (profile.accessTokens === "global-issuer") return { keys: [(await this.of(projectId)).jwk] };
    const anonymous = query.includeAnonymous === true;
    const restricted = anonymous || query.includeRestricted === true;
    const kinds: TokenKind[] = ["normal", ...(restricted ? ["restricted" as const] : []), ...(anonymous ? ["anonymous" as const] : [])];
    const pairs = await Promise.all(kinds.map((kind) => this.pair(audienceOf(projectId, kind))));
    return { keys: pairs.flat().map((signer) => signer.jwk) };
  }
}

/** What the emulator's parts that sign or check tokens share: the keys, the version played and the API origin. */
export interface TokenContext {
  readonly signers: Signers;
  readonly profile: ServiceProfile;
  readonly apiOrigin: string;
}

/** Who an access token is for: the user's fields 2.8.86 puts in its claims. */
export interface TokenSubject {
  readonly projectId: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly displayName: string | null;
  readonly email: string | null;
  readonly emailVerified: boolean;
  readonly selectedTeamId: string | null;
  readonly signedUpAtMillis: number;
  readonly isAnonymous: boolean;
  readonly restrictedReason: RestrictedReason | null;
  readonly requiresTotpMfa: boolean;
}

export async function signAccessToken(
  t: TokenContext,
  s: TokenSubject,
  o: { readonly nowMs: number; readonly lifetimeMs: number },
): Promise<string> {
  const iat = Math.floor(o.nowMs / 1000);
  const kind: TokenKind = s.isAnonymous ? "anonymous" : s.restrictedReason ? "restricted" : "normal";
  const perAudience = t.profile.accessTokens === "per-audience";
  const audience = perAudience ? audienceOf(s.projectId, kind) : s.projectId;
  const signer = await t.signers.of(audience);
  const claims = perAudience
    ? {
        project_id: s.projectId,
        branch_id: "main",
        refresh_token_id: s.sessionId,
        role: "authenticated",
        name: s.displayName,
        email: s.email,
        email_verified: s.emailVerified,
        selected_team_id: s.selectedTeamId,
        signed_up_at: Math.floor(s.signedUpAtMillis / 1000),
        is_anonymous: s.isAnonymous,
        is_restricted: s.restrictedReason !== null,
        restricted_reason: s.restrictedReason,
        requires_totp_mfa: s.requiresTotpMfa,
      }
    : { branchId: "main", refreshTokenId: s.sessionId, role: "authenticated" };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: signer.kid })
    .setSubject(s.userId)
    .setIssuer(issuerOf(t.profile, t.apiOrigin, s.projectId, kind))
    .setAudience(audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + Math.max(1, Math.round(o.lifetimeMs / 1000)))
    .sign(signer.privateKey);
}

export type TokenRole = "user" | "admin";

/** The project and kind of user an `aud` names (2.8.86's `<id>:anon`, `<id>:restricted`; otherwise the project id). */
function audienceParts(profile: ServiceProfile, audience: string): { projectId: string; kind: TokenKind } {
  if (profile.accessTokens === "per-audience") {
    if (audience.endsWith(":anon")) return { projectId: audience.slice(0, -":anon".length), kind: "anonymous" };
    if (audience.endsWith(":restricted")) return { projectId: audience.slice(0, -":restricted".length), kind: "restricted" };
  }
  return { projectId: audience, kind: "normal" };
}

/**
 * The claims of an access token for `projectId`, or the known error the service
 * answers: unparsable (or not ours, or not of the version played), expired, or
 * for another project.
 */
export async function verifyIssuedAccessToken(
  t: TokenContext,
  token: string,
  projectId: string,
  nowMs: number,
  role: TokenRole = "user",
): Promise<AccessClaims> {
  const codes =
    role === "user"
      ? { unparsable: "UNPARSABLE_ACCESS_TOKEN", expired: "ACCESS_TOKEN_EXPIRED", project: "INVALID_PROJECT_FOR_ACCESS_TOKEN" }
      : {
          unparsable: "UNPARSABLE_ADMIN_ACCESS_TOKEN",
          expired: "ADMIN_ACCESS_TOKEN_EXPIRED",
          project: "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN",
        };
  let audience: unknown;
  let kid: unknown;
  try {
    audience = decodeJwt(token).aud;
    kid = decodeProtectedHeader(token).kid;
  } catch {
    throw fail(codes.unparsable as never);
  }
  if (typeof audience !== "string") throw fail(codes.unparsable as never);
  // As the service does (lib/tokens.tsx decodeAccessToken, then smart-request.tsx at both versions): the token is
  // verified against its own project's keys and issuer first (expired, else unparsable), and only then compared with
  // the request's project.
  const parts = audienceParts(t.profile, audience);
  let claims: AccessClaims;
  try {
    const pair = await t.signers.pair(audience);
    const signer = t.profile.accessTokens === "per-audience" ? pair.find((key) => key.kid === kid) : pair[0];
    if (!signer) throw fail(codes.unparsable as never);
    const { payload } = await jwtVerify(token, signer.publicKey, {
      audience,
      issuer: issuerOf(t.profile, t.apiOrigin, parts.projectId, parts.kind),
      currentDate: new Date(nowMs),
      algorithms: ["ES256"],
    });
    const perAudience = t.profile.accessTokens === "per-audience";
    const reason = payload["restricted_reason"] as RestrictedReason | null | undefined;
    claims = {
      sub: String(payload.sub),
      project_id: parts.projectId,
      refresh_token_id: String((perAudience ? payload["refresh_token_id"] : payload["refreshTokenId"]) ?? ""),
      is_anonymous: perAudience && parts.kind === "anonymous",
      restricted_reason: perAudience ? (reason ?? null) : null,
      exp: Number(payload.exp),
      iat: Number(payload.iat),
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      const claims = decodeJwt(token);
      const expiredAt = { expired_at_millis: Number(claims.exp) * 1000 };
      // 2.8.86 also says whose token it was (a user's; an admin token's error has no such details).
      const whose =
        t.profile.expiredTokenSaysWhose && role === "user"
          ? {
              project_id: parts.projectId,
              user_id: typeof claims.sub === "string" ? claims.sub : null,
              refresh_token_id: typeof claims["refresh_token_id"] === "string" ? claims["refresh_token_id"] : null,
            }
          : {};
      throw fail(codes.expired as never, { ...expiredAt, ...whose });
    }
    throw fail(codes.unparsable as never);
  }
  if (parts.projectId !== projectId) {
    throw fail(
      codes.project as never,
      role === "user" ? { expected_project_id: projectId, actual_project_id: parts.projectId } : undefined,
    );
  }
  return claims;
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** `length` random characters of [a-z0-9]. */
export function randomString(length: number): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

export function randomId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * PBKDF2 (WebCrypto, SHA-256) rounds of a password hash. Fewer than a
 * production vault would use: the emulator keeps test users, and a sign-in
 * should cost a few milliseconds, not a hundred. Stored with the hash, so a
 * later change keeps old hashes checkable.
 */
const PBKDF2_ITERATIONS = 10_000;

/** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64): never the password itself. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomString(16);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${salt}$${await pbkdf2(password, salt, PBKDF2_ITERATIONS)}`;
}

export async function checkPassword(password: string, stored: string | null): Promise<boolean> {
  if (stored === null) return false;
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || salt === undefined || hash === undefined || !/^\d+$/.test(iterations ?? "")) return false;
  return (await pbkdf2(password, salt, Number(iterations))) === hash;
}

async function pbkdf2(password: string, salt: string, iterations: number): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: new TextEncoder().encode(salt), iterations }, key, 256);
  let binary = "";
  for (const byte of new Uint8Array(bits)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
