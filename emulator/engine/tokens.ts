// Access tokens as the service issues them: ES256 JWTs signed with a key of the
// emulator's own (published as a JWKS), carrying the claims the service sets.
// Refresh tokens, codes and keys are random strings. Time is the emulator's
// clock, so a test can expire tokens by advancing it.
import { decodeJwt, exportJWK, generateKeyPair, jwtVerify, SignJWT, errors as joseErrors, type JWK, type CryptoKey } from "jose";
import { fail } from "./http.js";

export interface AccessClaims {
  readonly sub: string;
  readonly project_id: string;
  readonly refresh_token_id: string;
  readonly is_anonymous: boolean;
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
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return { kid, jwk, privateKey, publicKey };
}

/**
 * One signing key per project, made when the project first needs it, as the
 * service keeps one per project. Keys live as long as the emulator: they are
 * not part of the exported state, so tokens do not outlive a restart (the
 * refresh tokens do, and get new access tokens).
 */
export class Signers {
  readonly #keys = new Map<string, Promise<Signer>>();

  of(projectId: string): Promise<Signer> {
    let signer = this.#keys.get(projectId);
    if (!signer) {
      signer = createSigner();
      this.#keys.set(projectId, signer);
    }
    return signer;
  }

  /** The project's published keys: `{ keys: [JWK] }`. */
  async jwks(projectId: string): Promise<{ keys: JWK[] }> {
    return { keys: [(await this.of(projectId)).jwk] };
  }
}

/** The `iss` of a project's access tokens. */
export function issuerOf(apiOrigin: string, projectId: string): string {
  return `${apiOrigin}/api/v1/projects/${projectId}`;
}

export async function signAccessToken(
  signer: Signer,
  o: {
    readonly issuerOrigin: string;
    readonly projectId: string;
    readonly userId: string;
    readonly sessionId: string;
    readonly isAnonymous: boolean;
    readonly nowMs: number;
    readonly lifetimeMs: number;
  },
): Promise<string> {
  const iat = Math.floor(o.nowMs / 1000);
  return new SignJWT({
    project_id: o.projectId,
    branch_id: "main",
    refresh_token_id: o.sessionId,
    role: "authenticated",
    is_anonymous: o.isAnonymous,
  })
    .setProtectedHeader({ alg: "ES256", kid: signer.kid, typ: "JWT" })
    .setSubject(o.userId)
    .setIssuer(issuerOf(o.issuerOrigin, o.projectId))
    .setAudience(o.projectId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + Math.max(1, Math.round(o.lifetimeMs / 1000)))
    .sign(signer.privateKey);
}

export type TokenRole = "user" | "admin";

/**
 * The claims of an access token for `projectId`, or the known error the service
 * answers: unparsable (or not ours), expired, or for another project.
 */
export async function verifyAccessToken(
  signers: Signers,
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
  try {
    audience = decodeJwt(token).aud;
  } catch {
    throw fail(codes.unparsable as never);
  }
  if (audience !== projectId) {
    throw fail(
      codes.project as never,
      role === "user" ? { expected_project_id: projectId, actual_project_id: String(audience) } : undefined,
    );
  }
  try {
    const signer = await signers.of(projectId);
    const { payload } = await jwtVerify(token, signer.publicKey, {
      audience: projectId,
      currentDate: new Date(nowMs),
      algorithms: ["ES256"],
    });
    return {
      sub: String(payload.sub),
      project_id: String(payload["project_id"] ?? projectId),
      refresh_token_id: String(payload["refresh_token_id"] ?? ""),
      is_anonymous: payload["is_anonymous"] === true,
      exp: Number(payload.exp),
      iat: Number(payload.iat),
    };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired)
      throw fail(codes.expired as never, { expired_at_millis: Number(decodeJwt(token).exp) * 1000 });
    throw fail(codes.unparsable as never);
  }
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
