// Which redirect targets the app follows (wire contract §13, §15): relative
// paths with exactly one leading slash, or absolute http(s) URLs on the page's
// origin or a trusted one, compared as parsed origins, after every decoding.
import { describe, expect, it } from "vitest";
import { assertSafeRedirectTarget, isSafeRedirectTarget, trustedOriginsOf } from "../../../runtime/app/redirect.js";
import { resolveHandlerUrls } from "../../../runtime/app/urls.js";
import { StackConfigurationError } from "../../../runtime/errors.js";
import { thrownBy } from "../../helpers/outcome.js";

const allowed = { origin: "https://app.example.com", trustedOrigins: ["https://dashboard.example.com"] };

// [title, payload]: every one must be refused.
const openRedirects: [string, string][] = [
  ["protocol-relative URL", "//evil.com"],
  ["protocol-relative URL to the app's own host", "//app.example.com/"],
  ["three leading slashes", "///evil.com"],
  ["four leading slashes", "////evil.com"],
  ["slash then backslash", "/\\evil.com"],
  ["backslash then slash", "\\/evil.com"],
  ["two backslashes", "\\\\evil.com"],
  ["slash, backslash, slash", "/\\/evil.com"],
  ["a backslash inside the path", "/path\\..\\evil"],
  ["protocol-relative URL with a backslash before a fake userinfo", "//evil.com\\@app.example.com"],
  ["another origin", "https://evil.com"],
  ["another origin over http", "http://evil.com/"],
  ["the app's host as a prefix of another host", "https://app.example.com.evil.com/"],
  ["a trusted host as a prefix of another host", "https://dashboard.example.com.evil.com/"],
  ["the app's host as userinfo of another host", "https://app.example.com@evil.com/"],
  ["the app's origin in another origin's path", "https://evil.com/https://app.example.com"],
  ["the app's origin in another origin's query", "https://evil.com?https://app.example.com"],
  ["the app's origin in another origin's fragment", "https://evil.com#https://app.example.com"],
  ["a trusted host in another origin's path", "https://evil.com/dashboard.example.com"],
  ["the app's host over http (scheme downgrade)", "http://app.example.com/"],
  ["the app's host on another port", "https://app.example.com:8443/"],
  ["the app's host with a trailing dot", "https://app.example.com./"],
  ["a homograph of the app's host", "https://\u0430pp.example.com/"],
  ["credentials on the app's own origin", "https://user:pass@app.example.com/"],
  ["another host hidden as encoded userinfo", "https://evil.com%2F@app.example.com/"],
  ["the app's host as encoded userinfo of another host", "https://app.example.com%2F@evil.com/"],
  ["a backslash before a fake userinfo", "https://app.example.com\\@evil.com"],
  ["a scheme without slashes", "https:evil.com"],
  ["a scheme with one slash", "https:/evil.com"],
  ["a scheme with three slashes", "https:///app.example.com/"],
  ["a double slash after the app's origin", "https://app.example.com//evil.com"],
  ["an encoded double slash after the app's origin", "https://app.example.com/%2F%2Fevil.com"],
  ["javascript:", "javascript:alert(1)"],
  ["javascript: in mixed case", "JaVaScRiPt:alert(1)"],
  ["javascript: after a leading space", " javascript:alert(1)"],
  ["javascript: with a tab inside the scheme", "java\tscript:alert(1)"],
  ["javascript: after a leading control character", "\u0001javascript:alert(1)"],
  ["javascript: percent-encoded", "javascript%3Aalert(1)"],
  ["data:", "data:text/html,<script>alert(1)</script>"],
  ["vbscript:", "vbscript:msgbox(1)"],
  ["file:", "file:///etc/passwd"],
  ["blob: on the app's own origin", "blob:https://app.example.com/0b5c6e4e"],
  ["ftp:", "ftp://app.example.com/"],
  ["ws:", "ws://app.example.com/"],
  ["an encoded protocol-relative URL", "%2F%2Fevil.com"],
  ["an encoded protocol-relative URL in lower case", "%2f%2fevil.com"],
  ["a slash then an encoded slash", "/%2Fevil.com"],
  ["a slash then an encoded backslash", "/%5Cevil.com"],
  ["a double-encoded protocol-relative URL", "%252F%252Fevil.com"],
  ["a slash then a double-encoded slash", "/%252Fevil.com"],
  ["a slash then a triple-encoded slash", "/%25252Fevil.com"],
  ["a slash then a double-encoded backslash", "/%255Cevil.com"],
  ["a tab between two slashes", "/\t/evil.com"],
  ["a newline between two slashes", "/\n/evil.com"],
  ["an encoded tab between two slashes", "/%09/evil.com"],
  ["an encoded CR LF between two slashes", "/%0d%0a/evil.com"],
  ["an encoded NUL between two slashes", "/%00/evil.com"],
  ["a non-breaking space between two slashes", "/\u00a0/evil.com"],
  ["a line separator between two slashes", "/\u2028/evil.com"],
  ["a leading ideographic space", "\u3000//evil.com"],
  ["a leading space before a protocol-relative URL", " //evil.com"],
  ["full-width slashes", "\uff0f\uff0fevil.com"],
  ["a dot-dot segment that leaves a double slash", "/..//evil.com"],
  ["an encoded dot-dot segment that leaves a double slash", "/%2e%2e//evil.com"],
  ["a bare host name", "evil.com"],
  ["a relative path without a leading slash", "dashboard"],
  ["a query-only target", "?next=1"],
  ["a fragment-only target", "#top"],
  ["an empty string", ""],
  ["a target that keeps decoding", "/%25252525252525252525252Fevil.com"],
];

// [title, target]: every one must be followed.
const safeTargets: [string, string][] = [
  ["the root path", "/"],
  ["a path", "/dashboard"],
  ["a path with a query and a fragment", "/search?q=a%20b#top"],
  ["a sign-in path carrying an encoded return-to", "/handler/sign-in?after_auth_return_to=%2Fdashboard%3Ftab%3D1"],
  ["a path whose query holds an encoded URL", "/search?next=%2F%2Fevil.com"],
  ["a path with an @", "/@evil.com"],
  ["a path that looks like a host", "/evil.com"],
  ["a path with a dot-dot segment", "/a/../b"],
  ["a path with non-ASCII text", "/caf\u00e9"],
  ["a path with encoded non-ASCII text", "/caf%C3%A9"],
  ["the app's origin", "https://app.example.com"],
  ["a page on the app's origin", "https://app.example.com/dashboard?x=1#y"],
  ["the app's origin with an upper-case host", "https://APP.example.com/"],
  ["the app's origin with an upper-case scheme", "HTTPS://app.example.com/account"],
  ["the app's origin with its default port", "https://app.example.com:443/"],
  ["a page on the app's origin whose query holds another URL", "https://app.example.com/cb?next=https%3A%2F%2Fother.com"],
  ["a trusted origin", "https://dashboard.example.com/"],
  ["a page on a trusted origin", "https://dashboard.example.com/projects?id=1"],
];

describe("isSafeRedirectTarget refuses open redirects", () => {
  it.each(openRedirects)("refuses %s", (_, payload) => {
    expect(isSafeRedirectTarget(payload, allowed)).toBe(false);
  });

  it("tests at least 30 payloads", () => {
    expect(openRedirects.length).toBeGreaterThanOrEqual(30);
  });
});

describe("isSafeRedirectTarget accepts relative and trusted targets", () => {
  it.each(safeTargets)("accepts %s", (_, target) => {
    expect(isSafeRedirectTarget(target, allowed)).toBe(true);
  });
});

describe("isSafeRedirectTarget's allowance", () => {
  it("accepts relative paths when there is no page origin", () => {
    expect(isSafeRedirectTarget("/dashboard", { origin: null, trustedOrigins: [] })).toBe(true);
  });

  it("refuses an absolute URL when there is no page origin and it is not trusted", () => {
    expect(isSafeRedirectTarget("https://app.example.com/", { origin: null, trustedOrigins: [] })).toBe(false);
  });

  it("accepts an absolute URL on a trusted origin when there is no page origin", () => {
    const trusted = { origin: null, trustedOrigins: ["https://app.example.com"] };
    expect(isSafeRedirectTarget("https://app.example.com/x", trusted)).toBe(true);
  });

  it("compares trusted origins as parsed origins, so a trusted URL with a path trusts its origin", () => {
    const trusted = { origin: null, trustedOrigins: ["https://Dashboard.example.com:443/some/page"] };
    expect(isSafeRedirectTarget("https://dashboard.example.com/other", trusted)).toBe(true);
  });

  it("ignores trusted entries that are not http(s) origins", () => {
    const trusted = { origin: "null", trustedOrigins: ["not a url", "javascript:alert(1)", "*"] };
    expect(isSafeRedirectTarget("https://evil.com/", trusted)).toBe(false);
  });

  it("returns false rather than throwing for a value that is not a string", () => {
    expect(isSafeRedirectTarget(undefined as unknown as string, allowed)).toBe(false);
    expect(isSafeRedirectTarget({ toString: () => "/" } as unknown as string, allowed)).toBe(false);
  });
});

describe("assertSafeRedirectTarget", () => {
  it("passes a safe target", () => {
    expect(() => assertSafeRedirectTarget("/dashboard", allowed)).not.toThrow();
  });

  it("throws the reference's message naming only the URL", () => {
    const error = thrownBy(() => assertSafeRedirectTarget("//evil.com", allowed));
    expect(error).toBeInstanceOf(StackConfigurationError);
    expect(error.message).toBe("Redirect URL //evil.com is not trusted; should be relative.");
  });

  it("escapes control characters of the URL it names, so the message cannot forge log lines", () => {
    const error = thrownBy(() => assertSafeRedirectTarget("/\n/evil.com", allowed));
    expect(error.message).toBe("Redirect URL /%0A/evil.com is not trusted; should be relative.");
  });
});

describe("trustedOriginsOf", () => {
  it("is empty for the default URL set, which is all relative", () => {
    expect(trustedOriginsOf(resolveHandlerUrls())).toEqual([]);
  });

  it("gives the origins of absolute URLs in the set, once each", () => {
    const urls = resolveHandlerUrls({
      afterSignIn: "https://dashboard.example.com/",
      afterSignOut: "https://www.example.com/bye",
      home: "https://www.example.com/",
      signIn: "/login",
    });
    expect(trustedOriginsOf(urls).sort()).toEqual(["https://dashboard.example.com", "https://www.example.com"]);
  });

  it("lets an app go to the absolute after-sign-in URL it configured", () => {
    const urls = resolveHandlerUrls({ afterSignIn: "https://dashboard.example.com/" });
    const trusted = { origin: "https://app.example.com", trustedOrigins: trustedOriginsOf(urls) };
    expect(isSafeRedirectTarget(urls.afterSignIn, trusted)).toBe(true);
  });

  it("does not trust configured URLs that are not http(s) or carry credentials", () => {
    const urls = resolveHandlerUrls({ home: "javascript:alert(1)", error: "https://u:p@evil.com/" });
    expect(trustedOriginsOf(urls)).toEqual([]);
  });
});
