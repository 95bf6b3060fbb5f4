// @vitest-environment jsdom
// <StackProvider> and useStackApp, and the QueryClient the provider brings,
// set to SPEC §9's cache rules: one request for concurrent reads, reuse within
// 300 ms, an unobserved entry dropped after 5 s, no retries on top of the runtime's.
import { cleanup, render, renderHook, screen } from "@testing-library/react";
import { QueryClient } from "@tanstack/react-query";
import { HttpResponse } from "msw";
import type { ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createStackQueryClient,
  projectQueryOptions,
  StackProvider,
  stackQueryOptions,
  useStackApp,
  useStackQueryClient,
} from "../../react/index.js";
import { StackConfigurationError } from "../../runtime/errors.js";
import { useFakeClock } from "../helpers/fake-service.js";
import { Boundary } from "./render.js";
import { example, get, stackServer, testApp } from "./stack-test.js";

const { server, requests, calls } = stackServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

describe("useStackApp", () => {
  it("returns the provider's app", () => {
    const { app } = testApp();
    const wrapper = ({ children }: { children: ReactNode }) => <StackProvider app={app}>{children}</StackProvider>;
    expect(renderHook(() => useStackApp(), { wrapper }).result.current).toBe(app);
  });

  it("outside a provider throws a StackConfigurationError naming StackProvider", () => {
    const caught: unknown[] = [];
    function Probe() {
      useStackApp();
      return null;
    }
    render(
      <Boundary>
        <Probe />
      </Boundary>,
      { onCaughtError: (error) => void caught.push(error) },
    );
    expect(caught[0]).toBeInstanceOf(StackConfigurationError);
    expect(screen.getByRole("alert").textContent).toBe(
      'StackConfigurationError: useStackApp() was called outside <StackProvider>. Wrap your app in <StackProvider app={stackClientApp}> (from "stackkit/react") so that hooks can reach the app.',
    );
  });

  it("a provider without an app says what to pass", () => {
    const caught: unknown[] = [];
    render(
      <Boundary>
        <StackProvider app={undefined as never} />
      </Boundary>,
      { onCaughtError: (error) => void caught.push(error) },
    );
    expect(caught[0]).toBeInstanceOf(StackConfigurationError);
    expect((caught[0] as Error).message).toMatch(/<StackProvider> needs the client app/);
  });
});

describe("the provider's QueryClient", () => {
  it("is made with the stackkit defaults when none is given, and kept across renders", () => {
    const { app } = testApp();
    const wrapper = ({ children }: { children: ReactNode }) => <StackProvider app={app}>{children}</StackProvider>;
    const hook = renderHook(() => useStackQueryClient(), { wrapper });
    const first = hook.result.current;
    hook.rerender();
    expect(hook.result.current).toBe(first);
    expect(first.getDefaultOptions().queries).toMatchObject({ staleTime: 300, gcTime: 5000, retry: false });
  });

  it("is the one given to the provider when there is one", () => {
    const { app } = testApp();
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <StackProvider app={app} queryClient={queryClient}>
        {children}
      </StackProvider>
    );
    expect(renderHook(() => useStackQueryClient(), { wrapper }).result.current).toBe(queryClient);
  });
});

describe("createStackQueryClient", () => {
  it("sets staleTime 300, gcTime 5000 and no retries, under options the app gives", () => {
    const client = createStackQueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
    expect(client.getDefaultOptions()).toEqual({
      queries: { staleTime: 300, gcTime: 5000, retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    });
  });

  it("shares one request between concurrent reads of one key", async () => {
    server.use(get("/projects/current", () => HttpResponse.json(example("ClientProject"))));
    const client = createStackQueryClient();
    const options = stackQueryOptions(testApp().app, "getCurrentProject");
    await Promise.all(Array.from({ length: 5 }, () => client.fetchQuery(options)));
    expect(calls()).toEqual(["GET /projects/current"]);
  });

  it("reuses a fetch for 300 ms, then fetches again", async () => {
    useFakeClock();
    server.use(get("/projects/current", () => HttpResponse.json(example("ClientProject"))));
    const client = createStackQueryClient();
    const options = stackQueryOptions(testApp().app, "getCurrentProject");
    await client.fetchQuery(options);
    await vi.advanceTimersByTimeAsync(299);
    await client.fetchQuery(options);
    expect(calls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await client.fetchQuery(options);
    expect(calls()).toHaveLength(2);
  });

  it("drops an entry nobody subscribes to after 5 s", async () => {
    useFakeClock();
    server.use(get("/projects/current", () => HttpResponse.json(example("ClientProject"))));
    const client = createStackQueryClient();
    const { queryKey } = projectQueryOptions(testApp().app);
    await client.fetchQuery(projectQueryOptions(testApp().app));
    await vi.advanceTimersByTimeAsync(4999);
    expect(client.getQueryCache().find({ queryKey })).toBeDefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(client.getQueryCache().find({ queryKey })).toBeUndefined();
  });

  it("does not retry a failed read (the runtime has its own retries)", async () => {
    server.use(get("/projects/current", () => new HttpResponse("bad", { status: 400 })));
    const client = createStackQueryClient();
    await expect(client.fetchQuery(stackQueryOptions(testApp().app, "getCurrentProject"))).rejects.toMatchObject({ status: 400 });
    expect(calls()).toEqual(["GET /projects/current"]);
  });
});
