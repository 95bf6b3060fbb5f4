// The service's access tokens and key sets as each version makes them, with keys
// the test makes, served through an injected fetch (read from the service's
// public source, apps/backend/src/lib/tokens.tsx and the JWKS route
// projects/[project_id]/.well-known/jwks.json, at 2.8.11 and 2.8.86):
// - 2.8.11: `iss` https://access-token.jwt-signature.stack-auth.com for every
//   project, `aud` the project id, camelCase `branchId` and `refreshTokenId`; the
//   key set holds the project's one key whatever the query says.
// - 2.8.86: an issuer and an audience per kind of user, snake_case claims about
//   the user; two keys per audience (the first signs), the restricted and
//   anonymous audiences' keys only with `?include_restricted=true` /
//   `?include_anonymous=true` (the second includes the first).
// The normal audience's first key at 2.8.86 is the one 2.8.11 published for the
// project (the same derivation), so one keyring serves both versions.
import { base64url, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import type { Fetch } from "../../../runtime/platform/env.js";

export const GLOBAL_ISSUER = "https://access-token.jwt-signature.stack-auth.com";
export const PROJECT = "6f4a3c2e-0b1d-4e5f-9a8b-7c6d5e4f3a2b";
export const OTHER_PROJECT = "internal";
export const BASE_URL = "https://api.example.com";

export type Version = "2.8.11" | "2.8.86";
export type Kind = "normal" | "restricted" | "anonymous";

export interface Key {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

/** The keys of every audience, made when first asked for: the service derives them from its secret. */
export class Keyring {
  readonly #keys = new Map<string, Promise<readonly [Key, Key]>>();

  /** The audience's two keys: the one that signs first, then the newer one also published. */
  of(audience: string): Promise<readonly [Key, Key]> {
    let keys = this.#keys.get(audience);
    if (!keys) this.#keys.set(audience, (keys = Promise.all([newKey(), newKey()])));
    return keys;
  }
}

async function newKey(): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const kid = base64url.encode(globalThis.crypto.getRandomValues(new Uint8Array(9)));
  // As the service publishes them: kty, alg, crv, x, y, kid (no `use`).
  const { kty = "EC", crv = "P-256", x = "", y = "" } = await exportJWK(publicKey);
  return { kid, privateKey, jwk: { kty, alg: "ES256", crv, x, y, kid } };
}

export const audienceOf = (projectId: string, kind: Kind) =>
  kind === "anonymous" ? `${projectId}:anon` : kind === "restricted" ? `${projectId}:restricted` : projectId;

export const issuerOf = (baseUrl: string, projectId: string, kind: Kind) =>
  `${baseUrl}/api/v1/projects${kind === "anonymous" ? "-anonymous-users" : kind === "restricted" ? "-restricted-users" : ""}/${projectId}`;

export interface TokenOptions {
  readonly projectId?: string;
  readonly userId?: string;
  readonly sessionId?: string;
  readonly kind?: Kind;
  /** Claims to add or replace (undefined removes one). */
  readonly claims?: Record<string, unknown>;
  readonly issuer?: string;
  readonly audience?: string;
  /** Which of the audience's two keys signs; default the first, as the service does. */
  readonly key?: 0 | 1;
  /** Seconds since the epoch; default now. */
  readonly iat?: number;
  /** Seconds; default 600 (the service's 10 minutes). */
  readonly lifetime?: number;
}

export interface FakeService {
  readonly version: Version;
  readonly baseUrl: string;
  readonly keyring: Keyring;
  /** What reaches the service, as `GET <path><query>`. */
  readonly requests: string[];
  readonly fetch: Fetch;
  /** An access token as this version signs it. */
  token(options?: TokenOptions): Promise<string>;
}

/** The claims 2.8.86 sets for each kind of user. */
function claims2886(kind: Kind, o: { projectId: string; sessionId: string }): Record<string, unknown> {
  const base = {
    project_id: o.projectId,
    branch_id: "main",
    refresh_token_id: o.sessionId,
    role: "authenticated",
    signed_up_at: 1_767_225_600,
    requires_totp_mfa: false,
  };
  switch (kind) {
    case "normal":
      return {
        ...base,
        name: "Ada Lovelace",
        email: "ada@example.com",
        email_verified: true,
        selected_team_id: "0b7c1b2e-4a4f-4c3e-9d47-2f1f3c5a6b7d",
        is_anonymous: false,
        is_restricted: false,
        restricted_reason: null,
      };
    case "restricted":
      return {
        ...base,
        name: null,
        email: "grace@example.com",
        email_verified: false,
        selected_team_id: null,
        is_anonymous: false,
        is_restricted: true,
        restricted_reason: { type: "email_not_verified" },
      };
    case "anonymous":
      return {
        ...base,
        name: null,
        email: null,
        email_verified: false,
        selected_team_id: null,
        is_anonymous: true,
        is_restricted: true,
        restricted_reason: { type: "anonymous" },
      };
  }
}

/** A service of `version` at `baseUrl` that knows `projects`, signing with `keyring`'s keys. */
export function fakeService(
  version: Version,
  options: { readonly baseUrl?: string; readonly keyring?: Keyring; readonly projects?: readonly string[] } = {},
): FakeService {
  const baseUrl = options.baseUrl ?? BASE_URL;
  const keyring = options.keyring ?? new Keyring();
  const projects = options.projects ?? [PROJECT, OTHER_PROJECT];
  const requests: string[] = [];

  const fetch: Fetch = async (request) => {
    const url = new URL(request.url);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const match = /^\/api\/v1\/projects\/([^/]+)\/\.well-known\/jwks\.json$/.exec(url.pathname);
    if (!url.href.startsWith(baseUrl) || request.method !== "GET" || !match) return new Response("not this test's", { status: 500 });
    const projectId = decodeURIComponent(match[1]!);
    if (!projects.includes(projectId)) return new Response("Project not found", { status: 404 });
    if (version === "2.8.11") {
      // The query is not read: the project's one key.
      return Response.json({ keys: [(await keyring.of(projectId))[0].jwk] });
    }
    const anonymous = url.searchParams.get("include_anonymous") === "true";
    const restricted = anonymous || url.searchParams.get("include_restricted") === "true";
    const kinds: Kind[] = ["normal", ...(restricted ? (["restricted"] as const) : []), ...(anonymous ? (["anonymous"] as const) : [])];
    const keys = (await Promise.all(kinds.map((kind) => keyring.of(audienceOf(projectId, kind))))).flat().map((key) => key.jwk);
    return Response.json({ keys }, { headers: { "cache-control": "public, max-age=3600" } });
  };

  const token = async (o: TokenOptions = {}) => {
    const projectId = o.projectId ?? PROJECT;
    const kind = o.kind ?? "normal";
    const sessionId = o.sessionId ?? "5a0c1f8e-7d2b-4c6a-8e9f-1b2c3d4e5f60";
    const audience = o.audience ?? audienceOf(projectId, kind);
    const issuer = o.issuer ?? (version === "2.8.11" ? GLOBAL_ISSUER : issuerOf(baseUrl, projectId, kind));
    const key = (await keyring.of(version === "2.8.11" ? projectId : audienceOf(projectId, kind)))[o.key ?? 0];
    const own =
      version === "2.8.11"
        ? { branchId: "main", refreshTokenId: sessionId, role: "authenticated" }
        : claims2886(kind, { projectId, sessionId });
    const payload = Object.fromEntries(Object.entries({ ...own, ...o.claims }).filter(([, value]) => value !== undefined));
    const iat = o.iat ?? Math.floor(Date.now() / 1000);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: "ES256", kid: key.kid })
      .setSubject(o.userId ?? "3d3b9d4e-2f1a-4b5c-8d7e-6f5a4b3c2d1e")
      .setIssuer(issuer)
      .setIssuedAt(iat)
      .setAudience(audience)
      .setExpirationTime(iat + (o.lifetime ?? 600))
      .sign(key.privateKey);
  };

  return { version, baseUrl, keyring, requests, fetch, token };
}
