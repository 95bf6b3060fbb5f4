// A JWT's header and claims read without checking its signature (runtime/sessions/unverified-jwt.ts): what the
// client reads of its access tokens, and what the verifier reads before it fetches keys. Anything that is not a
// compact JWS whose part is a JSON object reads as null, never as a throw; what jose's decodeJwt reads, it reads alike.
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { unverifiedJwtClaims, unverifiedJwtHeader } from "../../../runtime/sessions/unverified-jwt.js";
import { jwt } from "../../helpers/fake-service.js";

const b64url = (text: string | Uint8Array) => Buffer.from(text).toString("base64url");
/** A token whose payload part is `payload`, as given (already encoded). */
const withPayload = (payload: string) => `${b64url('{"alg":"ES256"}')}.${payload}.c2ln`;

/** What jose's decodeJwt reads of `token`, or null where it throws. */
function joseClaims(token: string): unknown {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

describe("the claims of a token", () => {
  it("are its payload's JSON object, and its header is its header's", () => {
    const token = jwt({ exp: 1_900_000_000, is_anonymous: true, restricted_reason: { type: "anonymous" } });
    expect(unverifiedJwtClaims(token)).toEqual({
      sub: "user-1",
      exp: 1_900_000_000,
      is_anonymous: true,
      restricted_reason: { type: "anonymous" },
    });
    expect(unverifiedJwtHeader(token)).toEqual({ alg: "ES256", typ: "JWT" });
  });

  it("are read as UTF-8", () => {
    expect(unverifiedJwtClaims(jwt({ name: "Zoë 北京 🎉" }))?.name).toBe("Zoë 北京 🎉");
  });

  it("are read with or without well-placed padding, as jose reads them", () => {
    const unpadded = b64url('{"sub":"u1"}'); // 12 bytes: 16 characters
    const short = b64url('{"sub":"u123"}'); // 14 bytes: 19 characters, one "=" makes 20
    const readable = [unpadded, short, `${short}=`];
    const unreadable = [`${short}==`, `${unpadded}=`, `${unpadded}==`];
    expect(readable.map((p) => unverifiedJwtClaims(withPayload(p)))).toEqual([{ sub: "u1" }, { sub: "u123" }, { sub: "u123" }]);
    expect(unreadable.map((p) => unverifiedJwtClaims(withPayload(p)))).toEqual([null, null, null]);
    for (const p of [...readable, ...unreadable]) expect(unverifiedJwtClaims(withPayload(p))).toEqual(joseClaims(withPayload(p)));
  });

  it("are a large claims set's, however large", () => {
    const big = "x".repeat(1_000_000);
    expect(unverifiedJwtClaims(jwt({ big }))?.big).toBe(big);
  });
});

describe("what is not a compact JWS with a JSON object there reads as null", () => {
  const cases: [string, unknown][] = [
    ["undefined", undefined],
    ["null", null],
    ["a number", 42],
    ["an object", { payload: "x" }],
    ["the empty string", ""],
    ["text without dots", "not-a-jwt"],
    ["two parts", "a.b"],
    ["four parts", `${jwt()}.x`],
    ["five parts (a JWE)", "a.b.c.d.e"],
    ["an empty payload", `${b64url('{"alg":"ES256"}')}..c2ln`],
    ["only dots", "."],
    ["a million dots", ".".repeat(1_000_000)],
    ["a payload with base64's + and /", withPayload("eyJzdWIiOiJ1In0+/w")],
    ["a payload with a character of neither alphabet", withPayload("eyJzdWIiOiJ1In0*")],
    ["a payload with spaces", withPayload("eyJzdWIi OiJ1In0")],
    ["a payload of 4n+1 characters", withPayload("eyJzd")],
    ["a payload with padding inside", withPayload("ey=JzdWIiOiJ1In0")],
    ["a payload that is not UTF-8", withPayload(b64url(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])))],
    ["a payload that is not JSON", withPayload(b64url("not json"))],
    ["a payload of truncated JSON", withPayload(b64url('{"sub":"u"'))],
    ["a JSON array", withPayload(b64url('["sub"]'))],
    ["JSON null", withPayload(b64url("null"))],
    ["a JSON number", withPayload(b64url("1900000000"))],
    ["a JSON string", withPayload(b64url('"sub"'))],
    ["JSON true", withPayload(b64url("true"))],
    ["a megabyte of base64url that is not JSON", withPayload("A".repeat(1_048_576))],
  ];

  it.each(cases)("%s", (_, token) => {
    expect(unverifiedJwtClaims(token)).toBeNull();
    if (typeof token === "string" && token.split(".").length !== 3) expect(unverifiedJwtHeader(token)).toBeNull();
  });

  it.each(cases.filter(([, token]) => typeof token === "string" && !/ /.test(token)))("%s: jose refuses it too", (_, token) => {
    expect(joseClaims(token as string)).toBeNull();
  });

  it("a header that is not a JSON object, whatever the payload", () => {
    expect(unverifiedJwtHeader(`${b64url("[1]")}.${b64url("{}")}.c2ln`)).toBeNull();
    expect(unverifiedJwtHeader(`.${b64url("{}")}.c2ln`)).toBeNull();
    expect(unverifiedJwtClaims(`${b64url("[1]")}.${b64url("{}")}.c2ln`)).toEqual({});
  });

  it("and no edit of a token's text makes it throw", () => {
    const token = jwt({ exp: 1_900_000_000, name: "Zoë" });
    const alphabet = "AZaz09-_+/=. \u00e9\u{1f389}\u0000";
    let seed = 33;
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    for (let i = 0; i < 2_000; i++) {
      const at = next(token.length);
      const edited = token.slice(0, at) + alphabet[next(alphabet.length)]! + token.slice(at + next(3));
      expect(() => [unverifiedJwtClaims(edited), unverifiedJwtHeader(edited)]).not.toThrow();
      const claims = unverifiedJwtClaims(edited);
      if (claims !== null) expect(claims).toEqual(joseClaims(edited));
    }
  });
});
