// Server rendering (node, no DOM at all): renderToString of a tree with the
// provider and useUserQuery neither throws nor reaches for window or document,
// and sends nothing; the user query renders as pending.
import { HttpResponse } from "msw";
import { renderToString } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { StackProvider, useStackApp, useUserQuery } from "../../react/index.js";
import { StackClientApp } from "../../runtime/app/client-app.js";
import { get, example, signedIn, stackServer, testApp } from "./stack-test.js";

const { server, requests } = stackServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

function Header() {
  const app = useStackApp();
  const { data: user, isPending } = useUserQuery();
  return <header>{`${app.projectId}:${isPending ? "pending" : (user?.displayName ?? "nobody")}`}</header>;
}

describe("renderToString", () => {
  it("runs where there is no window or document", () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe("undefined");
    expect(typeof (globalThis as { document?: unknown }).document).toBe("undefined");
  });

  it("renders the provider and useUserQuery as pending, without a request", async () => {
    server.use(get("/users/me", () => HttpResponse.json(example("ClientUser"))));
    const { app } = testApp({ tokens: signedIn() });
    const html = renderToString(
      <StackProvider app={app}>
        <Header />
      </StackProvider>,
    );
    expect(html).toBe("<header>proj-1:pending</header>");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requests).toEqual([]);
  });

  it("works with an app made the server's way (no browser, tokens from a request)", () => {
    const app = new StackClientApp({
      projectId: "proj-1",
      tokenStore: new Request("https://app.example.com/", { headers: { cookie: "" } }),
      noAutomaticPrefetch: true,
    });
    expect(
      renderToString(
        <StackProvider app={app}>
          <Header />
        </StackProvider>,
      ),
    ).toBe("<header>proj-1:pending</header>");
  });
});
