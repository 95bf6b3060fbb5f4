// @vitest-environment jsdom
// Hydration: the browser's first render of the provider and useUserQuery
// matches the server's HTML (React reports no recoverable hydration error),
// then the user loads.
import { act, cleanup, screen } from "@testing-library/react";
import { HttpResponse } from "msw";
import { hydrateRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { StackProvider, useUserQuery } from "../../react/index.js";
import type { StackClientApp } from "../../runtime/app/client-app.js";
import { example, get, signedIn, stackServer, testApp } from "./stack-test.js";

const { server, requests } = stackServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  document.body.innerHTML = "";
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

function Header() {
  const { data: user, isPending } = useUserQuery();
  return <header>{isPending ? "pending" : (user?.displayName ?? "nobody")}</header>;
}

const tree = (app: StackClientApp, extra?: string) => (
  <StackProvider app={app}>
    <Header />
    {extra ? <p>{extra}</p> : null}
  </StackProvider>
);

/** Hydrates `html` with `ui` and returns the recoverable errors React reported (hydration mismatches). */
async function hydrate(html: string, ui: React.ReactNode) {
  const container = document.createElement("div");
  container.innerHTML = html;
  document.body.appendChild(container);
  const errors: unknown[] = [];
  let root: ReturnType<typeof hydrateRoot> | undefined;
  await act(async () => {
    root = hydrateRoot(container, ui, { onRecoverableError: (error) => void errors.push(error) });
  });
  return { errors, container, unmount: () => act(() => root!.unmount()) };
}

describe("hydration", () => {
  it("the first browser render matches the server's, then the user loads", async () => {
    server.use(get("/users/me", () => HttpResponse.json(example("ClientUser"))));
    const html = renderToString(tree(testApp({ tokens: signedIn() }).app));
    expect(requests).toEqual([]);
    const { errors, unmount } = await hydrate(html, tree(testApp({ tokens: signedIn() }).app));
    expect(errors).toEqual([]);
    await screen.findByText("Ada Lovelace");
    unmount();
  });

  it("a tree that renders differently is reported (the check can fail)", async () => {
    const html = renderToString(tree(testApp().app, "server"));
    const { errors, unmount } = await hydrate(html, tree(testApp().app, "browser"));
    expect(errors.length).toBeGreaterThan(0);
    unmount();
  });
});
