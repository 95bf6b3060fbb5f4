// The access token's expiry is read on every request (issue 13 §5): it is
// decoded once per token text and remembered, for a bounded number of tokens.
import { describe, expect, it } from "vitest";
import { accessTokenExpiresAt, decodeAccessTokenExpiry, tokenExpiryCache } from "../../../runtime/sessions/jwt.js";
import { jwt } from "../../helpers/fake-service.js";

/** A cache whose decoder records what it was asked to decode. */
function recorded(limit = 3) {
  const decoded: string[] = [];
  const expiresAt = tokenExpiryCache((token) => {
    decoded.push(token);
    return decodeAccessTokenExpiry(token);
  }, limit);
  return { decoded, expiresAt };
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
    expect([accessTokenExpiresAt(token), accessTokenExpiresAt(copyOf(token))]).toEqual([1_900_000_123_000, 1_900_000_123_000]);
  });
});
