// Session changes after a server-rendered page hydrated (issue 15 §3), against
// the emulator: a sign-in as someone else, a sign-out, a rotated session, a
// sign-out in another tab. useUser follows each without ever rendering the
// Suspense fallback again (the previous answer stays while the new one loads),
// and once a sign-out has succeeded no render shows the signed-out user.
import "./browser-globals.js";
import { cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_KEYS } from "../../emulator/index.js";
import { createStackQueryClient, currentUserQueryOptions } from "../../react/index.js";
import { createCookieTokenStore, createMemoryTokenStore, NO_TOKENS, type TokenStore, type TokenStoreInit } from "../../runtime/index.js";
import { signedInUser, useEmulator } from "../helpers/emulator.js";
import { browserApp, hydrate, log, page, requestWith, serverRender, settle, type PageOptions } from "./ssr-world.js";

const emulator = useEmulator();
beforeEach(() => {
  log.length = 0;
});
afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
  document.cookie.split(";").forEach((c) => (document.cookie = `${c.split("=")[0]!.trim()}=; max-age=0; path=/`));
});

/** Ada's page rendered on the server and hydrated in a tab whose tokens live in `tokenStore`. */
async function adasPage(
  tokenStore: (tokens: { accessToken: string; refreshToken: string }) => TokenStoreInit,
  o: PageOptions & { readonly redirectMethod?: "none" } = {},
) {
  const ada = await signedInUser(emulator(), "ada@example.com", { displayName: "Ada" });
  await signedInUser(emulator(), "bob@example.com", { displayName: "Bob" });
  const { html, state } = await serverRender(emulator(), requestWith(ada.tokens), o);
  const store = tokenStore(ada.tokens);
  const tab = browserApp(emulator(), store, o.redirectMethod ? { redirectMethod: o.redirectMethod } : {});
  const queryClient = createStackQueryClient();
  const view = await hydrate(html, page({ app: tab.app, queryClient, dehydratedState: state }, o));
  await settle();
  expect(view.container.textContent).toContain("user:Ada");
  log.length = 0;
  tab.sent.length = 0;
  return { ada, tab, store, queryClient, ...view };
}

describe("after a server-rendered page hydrated, useUser never suspends again", () => {
  it("on a sign-in as someone else: Ada stays until Bob is known, then Bob", async () => {
    const { tab, unmount } = await adasPage((tokens) => createMemoryTokenStore(tokens), { signInAs: "bob@example.com" });
    fireEvent.click(screen.getByText("sign in"));
    await screen.findByText("user:Bob");
    await screen.findByText("query:Bob");
    // Neither the fallback nor "signed out" in between; nothing of Ada once Bob showed.
    expect(log.every((entry) => entry === "user:Ada" || entry === "user:Bob")).toBe(true);
    expect(log.slice(log.indexOf("user:Bob"))).not.toContain("user:Ada");
    expect(tab.sent).toEqual(["POST /auth/password/sign-in", "GET /users/me"]);
    unmount();
  });

  it("on a sign-out: nobody, and no render after the sign-out succeeded shows Ada", async () => {
    let rendersAtSuccess = -1;
    let heldAtSuccess: unknown;
    const done = () => {
      rendersAtSuccess = log.length;
      heldAtSuccess = queryClient.getQueryData(currentUserQueryOptions(tab.app).queryKey);
    };
    const { tab, queryClient, unmount } = await adasPage((tokens) => createMemoryTokenStore(tokens), { done });
    fireEvent.click(screen.getByText("sign out"));
    // The sign-out then hands the page to the after-sign-out navigation, which waits (SPEC §9: 2000 ms).
    await waitFor(() => expect(rendersAtSuccess).toBeGreaterThanOrEqual(0), { timeout: 5000 });
    expect(heldAtSuccess).toBeNull();
    await screen.findByText("signed out");
    await screen.findByText("query signed out");
    expect(log.slice(rendersAtSuccess).every((entry) => entry === "signed out")).toBe(true);
    expect(log).not.toContain("fallback");
    // The empty session needs no request to know that nobody is signed in.
    expect(tab.sent).toEqual(["DELETE /auth/sessions/current"]);
    unmount();
  });

  it("on app.signOut() outside the hooks: nobody before React renders again, without a request", async () => {
    // No navigation to wait for: the sign-out resolves as soon as the session has ended.
    const { tab, queryClient, unmount } = await adasPage((tokens) => createMemoryTokenStore(tokens), { redirectMethod: "none" });
    await tab.app.signOut();
    const rendersAtSignOut = log.length;
    // React renders in a task of its own; by the next task the answer for the empty session is in.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queryClient.getQueryData(currentUserQueryOptions(tab.app).queryKey)).toBeNull();
    await screen.findByText("signed out");
    expect(log.slice(rendersAtSignOut).every((entry) => entry === "signed out")).toBe(true);
    expect(log).not.toContain("fallback");
    expect(tab.sent).toEqual(["DELETE /auth/sessions/current"]);
    unmount();
  });

  it("on a new session of the same user (tokens rotated): the user stays, asked for once", async () => {
    const { ada, tab, store, unmount } = await adasPage((tokens) => createMemoryTokenStore(tokens));
    (store as TokenStore).set(await emulator().control.createSession(ada.record.id));
    await waitFor(() => expect(tab.sent).toEqual(["GET /users/me"]));
    await settle();
    expect(screen.getByText("user:Ada")).toBeTruthy();
    expect(log).not.toContain("fallback");
    expect(log).not.toContain("signed out");
    unmount();
  });

  it("on a sign-out in another tab (the token cookies and their BroadcastChannel notice): nobody", async () => {
    const projectId = DEMO_KEYS.projectId;
    const { tab, unmount } = await adasPage((tokens) => {
      // The cookies the browser holds for both tabs.
      createCookieTokenStore({ projectId, broadcastChannel: null }).set(tokens);
      return "cookie";
    });
    const other = browserApp(emulator(), "cookie", { redirectMethod: "none" });
    await other.app.signOut();
    await screen.findByText("signed out", {}, { timeout: 2000 });
    expect(log).not.toContain("fallback");
    expect(tab.sent).toEqual([]);
    expect(createCookieTokenStore({ projectId, broadcastChannel: null }).get()).toEqual(NO_TOKENS);
    unmount();
  });
});
