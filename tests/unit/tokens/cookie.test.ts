// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isStackError } from "../../../runtime/errors.js";
import { createCookieTokenStore, type BroadcastChannelLike, type CookieDocument } from "../../../runtime/sessions/tokens/cookie.js";
import { NO_TOKENS, type TokenPair, type TokenStore } from "../../../runtime/sessions/tokens/store.js";

const projectId = "proj-1";
const http = { protocol: "http:" };
const https = { protocol: "https:" };
const timers = {
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (id: unknown) => clearTimeout(id as ReturnType<typeof setTimeout>),
};
const DELETED = "Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax";
/** The clock while a test runs. */
const NOW = Date.UTC(2026, 0, 15, 12);
/** The JSON of a refresh cookie as the official SDKs since 2.8.49 keep it, written at NOW, percent-encoded as set. */
const json = (refreshToken: string) => encodeURIComponent(JSON.stringify({ refresh_token: refreshToken, updated_at_millis: NOW }));

/** One browser's cookies, as stored: raw (encoded) values by name. */
type Jar = Map<string, string>;

/** A document over `jar` that records every assignment, attributes included (jsdom's hides them). */
function fakeDocument(jar: Jar): CookieDocument & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    get cookie() {
      return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    },
    set cookie(assignment: string) {
      writes.push(assignment);
      const [first = "", ...attributes] = assignment.split("; ");
      const at = first.indexOf("=");
      const name = first.slice(0, at);
      if (attributes.includes("Max-Age=0")) jar.delete(name);
      else jar.set(name, first.slice(at + 1));
    },
  };
}

/** BroadcastChannels of one origin, delivering at once; `posted` keeps every message sent. */
function channelHub() {
  const open = new Set<BroadcastChannelLike & { name: string }>();
  const posted: unknown[] = [];
  const factory = (name: string): BroadcastChannelLike => {
    const channel: BroadcastChannelLike & { name: string } = {
      name,
      onmessage: null,
      postMessage(message) {
        posted.push(message);
        for (const other of open) if (other !== channel && other.name === name) other.onmessage?.({ data: structuredClone(message) });
      },
      close() {
        open.delete(channel);
      },
    };
    open.add(channel);
    return channel;
  };
  return { factory, open, posted };
}

function storeOn(
  document: CookieDocument,
  extra: { location?: { protocol: string }; broadcastChannel?: ((name: string) => BroadcastChannelLike) | null } = {},
): TokenStore {
  return createCookieTokenStore({ projectId, document, location: http, env: timers, broadcastChannel: null, ...extra });
}

function recorder(store: TokenStore): { told: TokenPair[]; unsubscribe: () => void } {
  const told: TokenPair[] = [];
  return { told, unsubscribe: store.subscribe((tokens) => told.push(tokens)) };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  for (const cookie of document.cookie.split("; ")) {
    const name = cookie.split("=")[0];
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
});

describe("createCookieTokenStore on a jsdom document", () => {
  it("returns what set() stored", () => {
    const store = storeOn(document);
    store.set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
  });

  it("keeps the tokens in the cookies, where a new store finds them", () => {
    storeOn(document).set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(document.cookie).toBe(
      `stack-refresh-proj-1=rt-1; stack-refresh-proj-1--default=${json("rt-1")}; stack-access=%5B%22rt-1%22%2C%22at-1%22%5D`,
    );
    expect(storeOn(document).get()).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
  });

  it("removes the cookies on sign-out", () => {
    const store = storeOn(document);
    store.set({ refreshToken: "rt-1", accessToken: "at-1" });
    store.set(NO_TOKENS);
    expect(document.cookie).toBe("");
  });
});

describe("cookies written", () => {
  it("names the refresh cookie after the project, and pairs the access token with the refresh token", () => {
    const doc = fakeDocument(new Map());
    storeOn(doc).set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(doc.writes).toEqual([
      "stack-refresh-proj-1=rt-1; Max-Age=31536000; Path=/; SameSite=Lax",
      `stack-refresh-proj-1--default=${json("rt-1")}; Max-Age=31536000; Path=/; SameSite=Lax`,
      "stack-access=%5B%22rt-1%22%2C%22at-1%22%5D; Max-Age=86400; Path=/; SameSite=Lax",
    ]);
  });

  it("adds Secure on https", () => {
    const doc = fakeDocument(new Map());
    storeOn(doc, { location: https }).set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(doc.writes).toEqual([
      "stack-refresh-proj-1=rt-1; Max-Age=31536000; Path=/; Secure; SameSite=Lax",
      `__Host-stack-refresh-proj-1--default=${json("rt-1")}; Max-Age=31536000; Path=/; Secure; SameSite=Lax`,
      "stack-access=%5B%22rt-1%22%2C%22at-1%22%5D; Max-Age=86400; Path=/; Secure; SameSite=Lax",
    ]);
  });

  it("deletes with the same name and path, max-age 0 and a past expiry", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh-proj-1", "rt-1"],
        ["stack-access", '["rt-1","at-1"]'],
      ]),
    );
    storeOn(doc).set(NO_TOKENS);
    expect(doc.writes).toEqual([`stack-refresh-proj-1=; ${DELETED}`, `stack-access=; ${DELETED}`]);
  });

  it("writes no cookie when nothing changes", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh-proj-1", "rt-1"],
        ["stack-access", '["rt-1","at-1"]'],
      ]),
    );
    storeOn(doc).set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(doc.writes).toEqual([]);
  });

  it("rewrites only stack-access when only the access token changes", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh-proj-1", "rt-1"],
        ["stack-access", '["rt-1","at-1"]'],
      ]),
    );
    storeOn(doc).set({ refreshToken: "rt-1", accessToken: "at-2" });
    expect(doc.writes).toEqual(["stack-access=%5B%22rt-1%22%2C%22at-2%22%5D; Max-Age=86400; Path=/; SameSite=Lax"]);
  });

  it("deletes the legacy stack-refresh cookie on a write", () => {
    const doc = fakeDocument(new Map([["stack-refresh", "legacy-rt"]]));
    storeOn(doc).set({ refreshToken: "rt-1", accessToken: null });
    expect(doc.writes).toEqual([
      "stack-refresh-proj-1=rt-1; Max-Age=31536000; Path=/; SameSite=Lax",
      `stack-refresh-proj-1--default=${json("rt-1")}; Max-Age=31536000; Path=/; SameSite=Lax`,
      `stack-refresh=; ${DELETED}`,
    ]);
  });

  it("deletes only a leftover stack-refresh when the project's cookies hold the token already", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh", "legacy-rt"],
        ["stack-refresh-proj-1", "rt-1"],
      ]),
    );
    storeOn(doc).set({ refreshToken: "rt-1", accessToken: null });
    expect(doc.writes).toEqual([`stack-refresh=; ${DELETED}`]);
  });
});

describe("cookies read", () => {
  it("uses the access token of a pair whose first element is the refresh token", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh-proj-1", "rt-1"],
        ["stack-access", "%5B%22rt-1%22%2C%22at-1%22%5D"],
      ]),
    );
    expect(storeOn(doc).get()).toEqual({ refreshToken: "rt-1", accessToken: "at-1" });
  });

  it("ignores a pair made for another refresh token, and leaves it to its project", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh-proj-1", "rt-1"],
        ["stack-access", '["rt-other","at-other"]'],
      ]),
    );
    expect(storeOn(doc).get()).toEqual({ refreshToken: "rt-1", accessToken: null });
    expect(doc.writes).toEqual([]);
  });

  it.each(["at-1", "%5B", '["rt-1"]', '["rt-1",42]', '{"0":"rt-1","1":"at-1"}', '["rt-1","at-1","x"]'])(
    "ignores the malformed pair %s, and deletes it",
    (value) => {
      const doc = fakeDocument(
        new Map([
          ["stack-refresh-proj-1", "rt-1"],
          ["stack-access", value],
        ]),
      );
      expect(storeOn(doc).get()).toEqual({ refreshToken: "rt-1", accessToken: null });
      expect(doc.writes).toEqual([`stack-access=; ${DELETED}`]);
    },
  );

  it("falls back to the legacy stack-refresh cookie when the project's is absent", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh", "legacy-rt"],
        ["stack-access", '["legacy-rt","at-1"]'],
      ]),
    );
    expect(storeOn(doc).get()).toEqual({ refreshToken: "legacy-rt", accessToken: "at-1" });
  });

  it("prefers the project's refresh cookie to the legacy one", () => {
    const doc = fakeDocument(
      new Map([
        ["stack-refresh", "legacy-rt"],
        ["stack-refresh-proj-1", "rt-1"],
      ]),
    );
    expect(storeOn(doc).get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });

  it('reads a refresh cookie holding the string "undefined" as absent, and deletes it', () => {
    const doc = fakeDocument(new Map([["stack-refresh-proj-1", "undefined"]]));
    expect(storeOn(doc).get()).toEqual(NO_TOKENS);
    expect(doc.writes).toEqual([`stack-refresh-proj-1=; ${DELETED}`]);
  });
});

describe("an access token without a refresh token", () => {
  it("is kept for this tab", () => {
    const doc = fakeDocument(new Map());
    const store = storeOn(doc);
    store.set({ refreshToken: null, accessToken: "at-only" });
    expect(store.get()).toEqual({ refreshToken: null, accessToken: "at-only" });
  });

  it("is not written to the shared cookies", () => {
    const doc = fakeDocument(new Map());
    storeOn(doc).set({ refreshToken: null, accessToken: "at-only" });
    expect(doc.writes).toEqual([]);
    expect(storeOn(doc).get()).toEqual(NO_TOKENS);
  });

  it("gives way when the cookies change elsewhere", () => {
    const jar: Jar = new Map();
    const store = storeOn(fakeDocument(jar));
    store.set({ refreshToken: null, accessToken: "at-only" });
    storeOn(fakeDocument(jar)).set({ refreshToken: "rt-2", accessToken: "at-2" });
    expect(store.get()).toEqual({ refreshToken: "rt-2", accessToken: "at-2" });
  });
});

describe("following other tabs", () => {
  const signedIn = (): Jar =>
    new Map([
      ["stack-refresh-proj-1", "rt-1"],
      ["stack-access", '["rt-1","at-1"]'],
    ]);

  it("polls only while someone subscribes", () => {
    const store = storeOn(fakeDocument(signedIn()));
    expect(vi.getTimerCount()).toBe(0);
    const { unsubscribe } = recorder(store);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(vi.getTimerCount()).toBe(1);
    unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps polling until the last subscriber leaves", () => {
    const store = storeOn(fakeDocument(signedIn()));
    const first = recorder(store);
    const second = recorder(store);
    first.unsubscribe();
    expect(vi.getTimerCount()).toBe(1);
    second.unsubscribe();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("learns of another tab's sign-out at once over the channel", () => {
    const jar = signedIn();
    const hub = channelHub();
    const tabA = storeOn(fakeDocument(jar), { broadcastChannel: hub.factory });
    const tabB = storeOn(fakeDocument(jar), { broadcastChannel: hub.factory });
    const { told } = recorder(tabB);
    tabA.set(NO_TOKENS);
    expect(told).toEqual([{ refreshToken: null, accessToken: null }]);
  });

  it("sends no tokens over the channel, only a change notice", () => {
    const hub = channelHub();
    const tab = storeOn(fakeDocument(new Map()), { broadcastChannel: hub.factory });
    tab.set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(hub.posted).toEqual([{ type: "tokens-changed" }]);
  });

  it("sends no notice for a write that changes no cookie", () => {
    const hub = channelHub();
    storeOn(fakeDocument(signedIn()), { broadcastChannel: hub.factory }).set({ refreshToken: "rt-1", accessToken: "at-1" });
    expect(hub.posted).toEqual([]);
  });

  it("learns of another tab's sign-out within one poll without the channel", () => {
    const jar = signedIn();
    const tabA = storeOn(fakeDocument(jar));
    const tabB = storeOn(fakeDocument(jar));
    const { told } = recorder(tabB);
    tabA.set(NO_TOKENS);
    expect(told).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(told).toEqual([{ refreshToken: null, accessToken: null }]);
  });

  it("tells a change once when both the channel and the poll see it", () => {
    const jar = signedIn();
    const hub = channelHub();
    const tabA = storeOn(fakeDocument(jar), { broadcastChannel: hub.factory });
    const { told } = recorder(storeOn(fakeDocument(jar), { broadcastChannel: hub.factory }));
    tabA.set(NO_TOKENS);
    vi.advanceTimersByTime(100);
    expect(told).toHaveLength(1);
  });

  it("opens the channel with the first subscriber and closes it with the last", () => {
    const hub = channelHub();
    const store = storeOn(fakeDocument(new Map()), { broadcastChannel: hub.factory });
    expect(hub.open.size).toBe(0);
    const { unsubscribe } = recorder(store);
    expect([...hub.open].map((channel) => channel.name)).toEqual(["stack-tokens-proj-1"]);
    unsubscribe();
    expect(hub.open.size).toBe(0);
  });

  it("notifies other tabs from a store nobody subscribes to, closing the channel it opened", () => {
    const jar = signedIn();
    const hub = channelHub();
    const { told } = recorder(storeOn(fakeDocument(jar), { broadcastChannel: hub.factory }));
    storeOn(fakeDocument(jar), { broadcastChannel: hub.factory }).set(NO_TOKENS);
    expect(told).toEqual([{ refreshToken: null, accessToken: null }]);
    expect(hub.open.size).toBe(1);
  });

  it("tells its own subscribers of its own set()", () => {
    const store = storeOn(fakeDocument(signedIn()));
    const { told } = recorder(store);
    store.set({ refreshToken: "rt-1", accessToken: "at-2" });
    expect(told).toEqual([{ refreshToken: "rt-1", accessToken: "at-2" }]);
  });

  it('throws a StackConfigurationError for a set() with the string "undefined"', () => {
    const doc = fakeDocument(new Map());
    let caught: unknown;
    try {
      storeOn(doc).set({ refreshToken: "rt-1", accessToken: "undefined" });
    } catch (error) {
      caught = error;
    }
    expect(isStackError(caught, "StackConfigurationError")).toBe(true);
    expect(doc.writes).toEqual([]);
  });

  it.each([
    { refreshToken: "null", accessToken: null },
    { refreshToken: "rt-\u20ac", accessToken: null },
    { refreshToken: "rt-1", accessToken: "at\n1" },
  ])("never writes a cookie for set(%j), which cannot be tokens", (tokens) => {
    const doc = fakeDocument(new Map([["stack-refresh-proj-1", "rt-1"]]));
    const store = storeOn(doc);
    expect(() => store.set(tokens)).toThrow(/Pass null when there is no (refresh|access) token\.$/);
    expect(doc.writes).toEqual([]);
    expect(store.get()).toEqual({ refreshToken: "rt-1", accessToken: null });
  });

  it("reads a refresh cookie another tab spoiled as a sign-out at the next poll, deletes it, and keeps polling", () => {
    const jar = signedIn();
    const store = storeOn(fakeDocument(jar));
    const { told } = recorder(store);
    jar.set("stack-refresh-proj-1", "undefined");
    vi.advanceTimersByTime(100);
    expect(told).toEqual([{ refreshToken: null, accessToken: null }]);
    // The pair is well-formed, so it may be another project's: left alone.
    expect([...jar]).toEqual([["stack-access", '["rt-1","at-1"]']]);
    expect(vi.getTimerCount()).toBe(1);
  });
});
