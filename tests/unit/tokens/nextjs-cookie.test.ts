// @vitest-environment jsdom
// "nextjs-cookie", the official SDK's token store for Next.js apps, in a browser:
// the same cookies as "cookie" (its refusal on a server is in resolve.test.ts).
import { afterEach, describe, expect, it } from "vitest";
import { classifyTokenStore, resolveTokenStore } from "../../../runtime/sessions/tokens/resolve.js";

const options = { projectId: "proj-1" };

afterEach(() => {
  for (const cookie of document.cookie.split("; ")) {
    const name = cookie.split("=")[0];
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
});

describe('"nextjs-cookie" in a browser', () => {
  it('is a cookie store: what it stores, a "cookie" store reads, and the other way round', () => {
    expect(classifyTokenStore("nextjs-cookie")).toEqual({ kind: "cookie" });
    resolveTokenStore("nextjs-cookie", options)!.set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(resolveTokenStore("cookie", options)!.get()).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
    resolveTokenStore("cookie", options)!.set({ refreshToken: "rt-2", accessToken: "at-2" });
    expect(resolveTokenStore("nextjs-cookie", options)!.get()).toEqual({ refreshToken: "rt-2", accessToken: "at-2" });
  });
});
