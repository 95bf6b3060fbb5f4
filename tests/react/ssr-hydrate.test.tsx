// Server rendering without a flash (issue 15 §3), against the emulator: the
// server prefetches the request's user and dehydrates it; the browser's first
// render shows that user with no request, no Suspense fallback and no
// hydration mismatch, and then checks it against the tab's own session.
import "./browser-globals.js";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { dehydrate } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { createStackQueryClient, prefetchUser, type UserJson } from "../../react/index.js";
import { userJsonOf, userOf } from "../../react/user-json.js";
import { createMemoryTokenStore, isKnownError, NO_TOKENS, StackClientApp, StackServerApp } from "../../runtime/index.js";
import { demoAppOptions, signedInUser, useEmulator } from "../helpers/emulator.js";
import { browserApp, hydrate, log, page, requestWith, serverRender, settle } from "./ssr-world.js";

const emulator = useEmulator();
beforeEach(() => {
  log.length = 0;
});
afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
});

describe("a page rendered on the server with prefetchUser", () => {
  it("renders the user on the server, and the browser's first render shows it: no request, no fallback, no mismatch", async () => {
    const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
    const { html, state } = await serverRender(emulator(), requestWith(ada.tokens));
    expect(html).toContain("<p>user:Ada</p><p>query:Ada</p>");
    log.length = 0;

    const tab = browserApp(emulator(), createMemoryTokenStore(ada.tokens));
    const { errors, container, unmount } = await hydrate(html, page({ app: tab.app, dehydratedState: state }));
    expect(errors).toEqual([]);
    expect(log[0]).toBe("user:Ada");
    await settle();
    expect(container.textContent).toContain("user:Adaquery:Ada");
    expect(log).not.toContain("fallback");
    // The copy was checked against the tab's tokens, which are Ada's: nothing to ask.
    expect(tab.sent).toEqual([]);
    unmount();
  });

  it("carries only the user's client fields, never a server user's server metadata", async () => {
    const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
    const server = new StackServerApp({ ...demoAppOptions(emulator()), tokenStore: "memory", secretServerKey: DEMO_KEYS.secretServerKey });
    await (await server.getUser(ada.record.id))!.update({ serverMetadata: { secret: "server-only-7f3a" } });
    const { html, json } = await serverRender(emulator(), requestWith(ada.tokens));
    expect(json).toContain('"displayName":"Ada"');
    expect(json).not.toContain("server-only-7f3a");
    expect(html).not.toContain("server-only-7f3a");
  });

  it("the hydrated user's methods act on the tab's session, asking for the user object on the first call", async () => {
    const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
    const { html, state } = await serverRender(emulator(), requestWith(ada.tokens));
    const tab = browserApp(emulator(), createMemoryTokenStore(ada.tokens));
    const finished: string[] = [];
    const { unmount } = await hydrate(html, page({ app: tab.app, dehydratedState: state }, { done: (what) => void finished.push(what) }));
    fireEvent.click(screen.getByText("rename"));
    await waitFor(() => expect(finished).toEqual(["renamed"]));
    expect(tab.sent).toEqual(["GET /users/me", "PATCH /users/me"]);
    expect((await ada.app.getUser({ or: "throw" })).displayName).toBe("Ada Lovelace");
    unmount();
  });

  it("a hydrated user has every field of the user it copies, and every method", async () => {
    const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
    await ada.user.createTeam({ displayName: "Analytical Engines" });
    const live = await ada.app.getUser({ or: "throw" });
    const hydrated = userOf(ada.app, JSON.parse(JSON.stringify(userJsonOf(live))) as UserJson);
    expect(hydrated).not.toBe(live);
    const fields = (user: object) => Object.entries(user).filter(([, value]) => typeof value !== "function");
    const { selectedTeam, currentSession: _, ...rest } = Object.fromEntries(fields(live));
    expect(Object.fromEntries(fields(hydrated))).toMatchObject(rest);
    expect(Object.fromEntries(fields(hydrated.selectedTeam!))).toEqual(Object.fromEntries(fields(selectedTeam as object)));
    expect(hydrated.selectedTeam!.displayName).toBe("Analytical Engines");
    const methods = (user: object) =>
      Object.keys({ ...Object.getPrototypeOf(user), ...user }).filter((k) => typeof (user as Record<string, unknown>)[k] === "function");
    expect(methods(live).length).toBeGreaterThan(25);
    for (const name of methods(live)) expect(typeof (hydrated as unknown as Record<string, unknown>)[name], name).toBe("function");
    for (const name of methods(live.selectedTeam!))
      expect(typeof (hydrated.selectedTeam as unknown as Record<string, unknown>)[name], name).toBe("function");
    expect(await hydrated.selectedTeam!.listUsers()).toHaveLength(1);
  });

  it("a hydrated selected team the user has left since answers the service's own error", async () => {
    const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
    await ada.user.createTeam({ displayName: "Analytical Engines" });
    const hydrated = userOf(ada.app, JSON.parse(JSON.stringify(userJsonOf(await ada.app.getUser({ or: "throw" })))) as UserJson);
    const live = await ada.app.getUser({ or: "throw" });
    await live.leaveTeam(live.selectedTeam!);
    const error = await hydrated.selectedTeam!.update({ displayName: "Difference Engines" }).catch((e: unknown) => e);
    expect(isKnownError(error)).toBe(true);
    expect(error).toMatchObject({ status: 404 });
  });

  it("never rejects: a failed prefetch leaves nothing to hydrate", async () => {
    const client = createStackQueryClient();
    const broken = new StackClientApp({
      ...demoAppOptions(emulator()),
      tokenStore: "memory",
      // A refusal that is not retried, so the test does not wait out backoffs.
      environment: { fetch: async () => new Response("refused", { status: 400 }) },
    });
    await expect(prefetchUser(client, broken, { tokenStore: { accessToken: null, refreshToken: "rt-1" } })).resolves.toBeUndefined();
    expect(dehydrate(client).queries).toEqual([]);
  });
});

describe("a hydrated user that is not the tab's", () => {
  it("is dropped for nobody, without a request, when the tab signed out meanwhile", async () => {
    const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
    const { html, state } = await serverRender(emulator(), requestWith(ada.tokens));
    log.length = 0;
    const tab = browserApp(emulator(), createMemoryTokenStore(NO_TOKENS));
    const { container, unmount } = await hydrate(html, page({ app: tab.app, dehydratedState: state }));
    await settle();
    expect(container.textContent).toContain("signed out");
    expect(log).not.toContain("fallback");
    expect(log.at(-1)).toBe("signed out");
    expect(tab.sent).toEqual([]);
    unmount();
  });

  it("is replaced by the tab's own user when the tab is someone else's", async () => {
    const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
    const bob = await signedInUser(emulator(), "bob@example.com", { displayName: "Bob" });
    const { html, state } = await serverRender(emulator(), requestWith(ada.tokens));
    log.length = 0;
    const tab = browserApp(emulator(), createMemoryTokenStore(bob.tokens));
    const { container, unmount } = await hydrate(html, page({ app: tab.app, dehydratedState: state }));
    await settle(30, () => container.textContent?.includes("user:Bobquery:Bob") === true);
    expect(container.textContent).toContain("user:Bobquery:Bob");
    expect(log).not.toContain("fallback");
    expect(tab.sent).toEqual(["GET /users/me"]);
    unmount();
  });

  it("a server render for nobody is corrected when the tab has a user", async () => {
    const bob = await signedInUser(emulator(), "bob@example.com", { displayName: "Bob" });
    const { html, state } = await serverRender(emulator(), new Request("https://app.example.com/"));
    expect(html).toContain("signed out");
    log.length = 0;
    const tab = browserApp(emulator(), createMemoryTokenStore(bob.tokens));
    const { container, errors, unmount } = await hydrate(html, page({ app: tab.app, dehydratedState: state }));
    expect(errors).toEqual([]);
    await settle(30, () => container.textContent?.includes("user:Bob") === true);
    expect(container.textContent).toContain("user:Bob");
    expect(log).not.toContain("fallback");
    unmount();
  });
});
