// The x-stack-* headers of a request (wire contract §2). Only what has a value
// is sent: a project-owner session sends no empty key headers.
import type { AccessType } from "../../generated/operations.js";
import { StackAssertionError } from "../errors.js";
import { accessTokenFacts } from "../sessions/jwt.js";
import { isUsableToken } from "../sessions/tokens/check.js";
import type { MatchedOperation } from "./operations.js";

/** Who calls: the same for every request of an app. */
export interface AppIdentity {
  readonly projectId: string;
  readonly accessType: AccessType;
  readonly clientVersion: string;
  readonly publishableClientKey?: string | undefined;
  readonly secretServerKey?: string | undefined;
  readonly superSecretAdminKey?: string | undefined;
  /** The app's `extraRequestHeaders`; they may override anything the runtime sets. */
  readonly extraRequestHeaders?: Readonly<Record<string, string>> | undefined;
}

/** Who calls, and with which tokens this time. */
export interface HeaderContext extends AppIdentity {
  /** The project owner's access token, for admin apps built on a project-owner session. */
  readonly adminAccessToken?: string | null | undefined;
  readonly accessToken?: string | null | undefined;
  readonly refreshToken?: string | null | undefined;
  readonly nonce: string;
}

/**
 * The headers of a request, as a plain object of lowercase names: the fetch
 * reads one faster than a Headers, which it would copy entry by entry (issue 13
 * §5). Every value here is checked already (client.ts checks the ids, keys and
 * extra headers once; tokens are checked below), so none needs Headers' checks.
 */
export function stackHeaderFields(op: MatchedOperation, c: HeaderContext): Record<string, string> {
  const headers: Record<string, string> = {};
  put(headers, "x-stack-project-id", c.projectId);
  put(headers, "x-stack-access-type", c.accessType);
  put(headers, "x-stack-client-version", c.clientVersion);
  putToken(headers, "x-stack-access-token", c.accessToken);
  // The service reads the refresh token on two routes only; anywhere else it would be exposed for nothing.
  if (op.refreshTokenHeader) putToken(headers, "x-stack-refresh-token", c.refreshToken);
  const ownerSession = c.adminAccessToken !== undefined;
  if (!ownerSession) put(headers, "x-stack-publishable-client-key", c.publishableClientKey);
  if (c.accessType !== "client") put(headers, "x-stack-secret-server-key", c.secretServerKey);
  if (c.accessType === "admin") {
    put(headers, "x-stack-super-secret-admin-key", c.superSecretAdminKey);
    putToken(headers, "x-stack-admin-access-token", c.adminAccessToken);
  }
  put(headers, "x-stack-random-nonce", c.nonce);
  headers["x-stack-override-error-status"] = "true";
  // Services since 2.8.86 refuse an anonymous or restricted user's token unless the request says it takes one; the
  // SDK decides itself who counts as signed in (getUser's `or` and `includeRestricted`). The header goes only with a
  // token whose claims say so: 2.8.11 does not allow it in a browser's preflight (jwt.ts). The restricted header is
  // never sent: no version's CORS list allows it, and the anonymous one implies it.
  if (typeof c.accessToken === "string" && accessTokenFacts(c.accessToken).needsAnonymousUserHeader)
    headers["x-stack-allow-anonymous-user"] = "true";
  // Header names are case-insensitive: an extra header replaces the runtime's of any case.
  if (c.extraRequestHeaders) for (const [name, value] of Object.entries(c.extraRequestHeaders)) setHeaderField(headers, name, value);
  return headers;
}

function put(headers: Record<string, string>, name: string, value: string | null | undefined): void {
  if (value !== undefined && value !== null && value !== "") headers[name] = value;
}

/**
 * Sessions hand out usable tokens only (tokens/check.ts). Should anything else
 * get here, it is never sent, and the error names the header, not the value
 * (the TypeError of Headers would quote the token).
 */
function putToken(headers: Record<string, string>, name: string, value: string | null | undefined): void {
  if (value !== undefined && value !== null && value !== "" && !isUsableToken(value)) {
    throw new StackAssertionError(`The ${name} header was given a value that is not a usable token; it was not sent`);
  }
  put(headers, name, value);
}

/** The same headers as a Headers. */
export function stackHeaders(op: MatchedOperation, c: HeaderContext): Headers {
  return new Headers(stackHeaderFields(op, c));
}

/** Sets header `name` (of any case) in `fields`; `__proto__` is a header name like any other here. */
export function setHeaderField(fields: Record<string, string>, name: string, value: string): void {
  const key = name.toLowerCase();
  if (key === "__proto__") Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
  else fields[key] = value;
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** `bits` random bits as lowercase base32 (224 bits: 45 characters). */
export function randomNonce(randomBytes: (length: number) => Uint8Array, bits: number): string {
  const bytes = randomBytes(Math.ceil(bits / 8));
  let out = "";
  let buffer = 0;
  let held = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    held += 8;
    while (held >= 5) {
      out += BASE32[(buffer >>> (held - 5)) & 31];
      held -= 5;
    }
  }
  if (held > 0) out += BASE32[(buffer << (5 - held)) & 31];
  return out.slice(0, Math.ceil(bits / 5));
}
