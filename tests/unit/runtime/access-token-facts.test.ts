// What the client reads of an access token (its expiry, whether the request must say it takes an anonymous or
// restricted user) is read on every request (issue 13 §5): it is decoded once per token text and remembered, for a
// bounded number of tokens.
import { describe, expect, it } from "vitest";
import { accessTokenCache, accessTokenFacts, decodeAccessToken } from "../../../runtime/sessions/jwt.js";
import { jwt } from "../../helpers/fake-service.js";

/** A cache whose decoder records what it was asked to decode. */
function recorded(limit = 3) {
  const decoded: string[] = [];
  const facts = accessTokenCache((token) => {
    decoded.push(token);
    return decodeAccessToken(token);
  }, limit);
  return { decoded, expiresAt: (token: string) => facts(token).expiresAt };
}

/** The same text as `token`, as another string. */
const copyOf = (token: string) => [...token].join("");

describe("the expiry of an access token", () => {
  it("is decoded the first time its text is seen, and not again", () => {
    const { decoded, expiresAt } = recorded();
    const token = jwt({ exp: 1_900_000_000 });
    expect(expiresAt(token)).toBe(1_900_000_000_000);
    expect(expiresAt(token)).toBe(1_900_000_000_000);
    expect(expiresAt(copyOf(token))).toBe(1_900_000_000_000);
    expect(decoded).toEqual([token]);
  });

  it("of a new token is decoded, and is that token's own", () => {
    const { decoded, expiresAt } = recorded();
    const first = jwt({ exp: 1_900_000_000 });
    const second = jwt({ exp: 1_900_000_600 });
    expect(expiresAt(first)).toBe(1_900_000_000_000);
    expect(expiresAt(second)).toBe(1_900_000_600_000);
    expect(expiresAt(first)).toBe(1_900_000_000_000);
    expect(decoded).toEqual([first, second]);
  });

  it("is remembered as it was decoded: never for a token without exp, already past for one that is not a JWT", () => {
    const { decoded, expiresAt } = recorded();
    const endless = jwt();
    for (let i = 0; i < 2; i++) {
      expect(expiresAt(endless)).toBe(Number.POSITIVE_INFINITY);
      expect(expiresAt("not-a-jwt")).toBe(Number.NEGATIVE_INFINITY);
    }
    expect(decoded).toEqual([endless, "not-a-jwt"]);
  });

  it("is remembered for a bounded number of tokens, the least recently used forgotten first", () => {
    const { decoded, expiresAt } = recorded(3);
    const [a, b, c, d] = [1, 2, 3, 4].map((n) => jwt({ exp: 1_900_000_000 + n }));
    for (const token of [a!, b!, c!]) expiresAt(token);
    expiresAt(a!); // a is now more recent than b
    expiresAt(d!); // over the limit: b goes
    expect(decoded).toEqual([a, b, c, d]);
    expiresAt(a!);
    expiresAt(c!);
    expect(decoded).toEqual([a, b, c, d]);
    expiresAt(b!);
    expect(decoded).toEqual([a, b, c, d, b]);
  });

  it("is the same through the runtime's shared cache, however often it is asked for", () => {
    const token = jwt({ exp: 1_900_000_123 });
    expect([accessTokenFacts(token).expiresAt, accessTokenFacts(copyOf(token)).expiresAt]).toEqual([1_900_000_123_000, 1_900_000_123_000]);
  });
});

describe("whether a request must say it takes an anonymous or restricted user", () => {
  it("is read from the claims a service since 2.8.86 writes, as its request gate reads them", () => {
    const needs = (claims: Record<string, unknown>) => decodeAccessToken(jwt(claims)).needsAnonymousUserHeader;
    expect(needs({ is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } })).toBe(true);
    expect(needs({ is_anonymous: false, is_restricted: true, restricted_reason: { type: "email_not_verified" } })).toBe(true);
    expect(needs({ is_anonymous: false, restricted_reason: { type: "restricted_by_administrator" } })).toBe(true);
    expect(needs({ is_anonymous: false, is_restricted: false, restricted_reason: null })).toBe(false);
  });

  it("is never for a 2.8.11 token (camelCase claims, no user kind) nor for text that is not a JWT", () => {
    expect(
      decodeAccessToken(jwt({ sub: "u", branchId: "main", refreshTokenId: "r", role: "authenticated" })).needsAnonymousUserHeader,
    ).toBe(false);
    expect(decodeAccessToken("not-a-jwt")).toEqual({ expiresAt: Number.NEGATIVE_INFINITY, needsAnonymousUserHeader: false });
  });
});
