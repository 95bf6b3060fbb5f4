// What is checked of an access token besides its claims (claims.ts): before
// any key is fetched, its form, algorithm, audience and issuer as read from the
// unverified token, and whether the caller accepts its kind of user; with the
// keys, its signature, issuer, audience, `exp` and `nbf` (jose's jwtVerify),
// jose's failures turned into AccessTokenInvalidErrors saying why.
import { jwtVerify, type JWTPayload } from "jose";
import { unverifiedJwtClaims, unverifiedJwtHeader } from "../unverified-jwt.js";
import { malformed, type AudienceKind } from "./claims.js";
import { AccessTokenInvalidError } from "./errors.js";
import type { KeySet } from "./jwks.js";
import { KINDS, type Accepts, type Settings } from "./settings.js";

/** Access tokens are a few hundred bytes; far longer input is not one, and is refused before it is decoded. */
const MAX_TOKEN_LENGTH = 16_384;
/** The only algorithm the service signs access tokens with (getProjectJwks: "ES256, `kid` in its header"). */
const ALGORITHMS = ["ES256"];
/**
 * What can be refused before any key is fetched, read from the unverified
 * token: it is not a JWT, its algorithm is not the service's (`none` and HS*
 * included), it names no key, it is not for this project or for a kind of user
 * the caller accepts, or its issuer is not the one of its audience. Unknown
 * tokens thus never trigger a fetch; nothing read here is trusted for
 * acceptance (the signature, the audience and the issuer are checked again
 * with the keys).
 */
export function precheck(
  token: unknown,
  s: Settings,
  accepts: Accepts,
): AccessTokenInvalidError | { kind: AudienceKind; audience: string } {
  if (typeof token !== "string" || token === "") return malformed("it is empty or not a string");
  if (token.length > MAX_TOKEN_LENGTH) return malformed(`it is longer than ${MAX_TOKEN_LENGTH} characters`);
  const header = unverifiedJwtHeader(token);
  const payload = unverifiedJwtClaims(token);
  if (header === null || payload === null) return malformed("it is not a signed JWT");
  if (typeof header.alg !== "string" || !ALGORITHMS.includes(header.alg)) {
    return new AccessTokenInvalidError(
      "algorithm",
      `The access token is not signed with ${ALGORITHMS.join(" or ")}, the only algorithm accepted.`,
    );
  }
  if (typeof header.kid !== "string" || header.kid === "") return malformed("its header names no key (`kid`)");
  // One audience, as the service sets it (it refuses any other `aud` itself).
  const audience = payload.aud;
  const kind = typeof audience === "string" ? kindOf(audience, s.projectId) : undefined;
  if (typeof audience !== "string" || kind === undefined) return audienceError(s);
  const refused = userKindError(s, kind, accepts);
  if (refused) return refused;
  if (typeof payload.iss !== "string" || !s.issuers[kind].includes(payload.iss)) return issuerError(s, kind);
  return { kind, audience };
}

/** The kind of user `audience` names for `projectId`, or undefined when it is not one of the project's. */
function kindOf(audience: string, projectId: string): AudienceKind | undefined {
  return (Object.keys(KINDS) as AudienceKind[]).find((kind) => audience === projectId + KINDS[kind].audienceSuffix);
}

/** The refusal of a token of `kind` when the call does not accept such users, else undefined. */
export function userKindError(s: Settings, kind: AudienceKind, accepts: Accepts): AccessTokenInvalidError | undefined {
  if (kind === "normal" || (kind === "anonymous" ? accepts.anonymous : accepts.restricted)) return undefined;
  const option = kind === "anonymous" ? "allowAnonymous" : "allowRestricted";
  return new AccessTokenInvalidError(
    "audience",
    `The access token belongs to ${kind === "anonymous" ? "an anonymous" : "a restricted"} user of project ${s.projectId}, ` +
      `and ${kind} users are not accepted: pass \`${option}: true\` to accept them.`,
  );
}

export const UNKNOWN_KEY = Symbol("unknown key");

/** The verified payload, UNKNOWN_KEY when `keys` has no key for the token, or why it fails. */
export async function verifiedBy(
  token: string,
  keys: KeySet,
  s: Settings,
  kind: AudienceKind,
  audience: string,
): Promise<JWTPayload | typeof UNKNOWN_KEY | AccessTokenInvalidError> {
  try {
    const { payload } = await jwtVerify(token, keys.getKey, {
      algorithms: ALGORITHMS,
      issuer: [...s.issuers[kind]],
      audience,
      requiredClaims: ["sub", "exp"],
      currentDate: new Date(s.now()),
      clockTolerance: s.clockToleranceSec,
    });
    return payload;
  } catch (error) {
    return joseFailure(error, s, kind);
  }
}

/** jose's error as ours, matched on its `code` (stable across copies of jose). Anything else is not the token's fault: rethrown. */
function joseFailure(error: unknown, s: Settings, kind: AudienceKind): typeof UNKNOWN_KEY | AccessTokenInvalidError {
  const { code, claim, payload } = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    claim?: unknown;
    payload?: { exp?: unknown };
  };
  switch (code) {
    case "ERR_JWKS_NO_MATCHING_KEY":
      return UNKNOWN_KEY;
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return new AccessTokenInvalidError("unknown-key", "The access token's key id names more than one of the project's keys.", {
        cause: error,
      });
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return new AccessTokenInvalidError(
        "signature",
        "The access token's signature does not match the project's key: it was altered or forged.",
      );
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return new AccessTokenInvalidError("algorithm", `The access token is not signed with ${ALGORITHMS.join(" or ")}.`);
    case "ERR_JWT_EXPIRED": {
      const exp = payload?.exp;
      const expiredAt = typeof exp === "number" ? new Date(exp * 1000) : undefined;
      const when = expiredAt ? ` at ${expiredAt.toISOString()}` : "";
      return new AccessTokenInvalidError("expired", `The access token expired${when}; refresh it.`, expiredAt ? { expiredAt } : {});
    }
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (claim === "aud") return audienceError(s);
      if (claim === "iss") return issuerError(s, kind);
      if (claim === "nbf") return new AccessTokenInvalidError("not-yet-valid", "The access token is not valid yet (its `nbf` is ahead).");
      return malformed(`a claim is missing or of the wrong type (${String(claim)})`, error);
    case "ERR_JWKS_INVALID":
    case "ERR_JWK_INVALID":
      return new AccessTokenInvalidError(
        "jwks-unavailable",
        "The project's key for this token could not be used; the token was not judged.",
        {
          cause: error,
        },
      );
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
    case "ERR_JOSE_NOT_SUPPORTED":
      return malformed("it is not a valid signed JWT", error);
    default:
      throw error;
  }
}

function audienceError(s: Settings): AccessTokenInvalidError {
  return new AccessTokenInvalidError(
    "audience",
    `The access token is not for project ${s.projectId} (its \`aud\`): a token of another project.`,
  );
}

function issuerError(s: Settings, kind: AudienceKind): AccessTokenInvalidError {
  const issuers = s.issuers[kind];
  const expected =
    issuers.length > 0 ? issuers.join(" or ") : `the service's issuer of ${kind} users' tokens, which no \`issuer\` given names`;
  return new AccessTokenInvalidError(
    "issuer",
    `The access token was not issued by ${expected} (its \`iss\`). If the API is reached through a proxy, set \`issuer\`.`,
  );
}
