import { describe, expect, it } from "vitest";
import { createStackClient } from "../../../runtime/http/client.js";
import { environment, platformEnvironment, reportsOffline, type Environment } from "../../../runtime/platform/env.js";
import { StackConfigurationError } from "../../../runtime/errors.js";

describe("offline detection", () => {
  it("is true only for navigator.onLine === false", () => {
    expect(reportsOffline({ onLine: false })).toBe(true);
    expect(reportsOffline({ onLine: true })).toBe(false);
  });

  it("does not take a navigator without onLine (Node) or no navigator for offline", () => {
    expect(reportsOffline({ userAgent: "Node.js/22" })).toBe(false);
    expect(reportsOffline(undefined)).toBe(false);
  });
});

describe("the environment option", () => {
  it("keeps the platform's part where an override is undefined, as if it were left out", () => {
    const now = () => 42;
    // What a JavaScript caller (or a typed one, without exactOptionalPropertyTypes) can pass.
    const env = environment({ fetch: undefined, now } as unknown as Partial<Environment>);
    expect(env.fetch).toBe(platformEnvironment.fetch);
    expect(env.now).toBe(now);
  });

  it("refuses a part that is not a function, by name, before any request", () => {
    const bad = { fetch: "https://example.com" } as unknown as Partial<Environment>;
    expect(() => createStackClient({ projectId: "p", tokenStore: null, environment: bad })).toThrow(
      new StackConfigurationError("environment.fetch must be a function; got string."),
    );
  });

  it("refuses a part the environment does not have, naming the parts it has", () => {
    const bad = { sleep: () => {} } as unknown as Partial<Environment>;
    expect(() => environment(bad)).toThrow(
      new StackConfigurationError(
        "environment.sleep is not a part of the environment; it has fetch, now, setTimeout, clearTimeout, random, randomBytes, isOffline.",
      ),
    );
  });
});

describe("a client made with tokenStore: null", () => {
  it("explains, when a user is needed, which tokenStore values would give one", () => {
    const client = createStackClient({ projectId: "p", publishableClientKey: "k", tokenStore: null });
    expect(client.sessions).toBeNull();
    expect(() => client.requireSessions()).toThrow(StackConfigurationError);
    expect(() => client.requireSessions()).toThrow(/tokenStore/);
  });
});

describe("a client without a project id", () => {
  it("is refused with a message that says what is missing", () => {
    expect(() => createStackClient({ projectId: "" })).toThrow(
      new StackConfigurationError("projectId is required: the id of your project on the Stack Auth dashboard."),
    );
  });
});

describe("a base URL that already ends with /api/v1", () => {
  it.each(["http://127.0.0.1:8102/api/v1", "https://api.example.com/api/v1/"])(
    "%s is refused at construction, naming the origin to pass instead",
    (baseUrl) => {
      expect(() => createStackClient({ projectId: "p", baseUrl })).toThrow(
        new StackConfigurationError(
          `baseUrl ${JSON.stringify(baseUrl)} ends with /api/v1, which stackkit adds itself; pass the API's origin, ${JSON.stringify(baseUrl.replace(/\/api\/v1\/?$/, ""))}.`,
        ),
      );
    },
  );

  it("an origin with a path of its own before the API is kept", () => {
    expect(createStackClient({ projectId: "p", baseUrl: "https://example.com/auth/" }).baseUrl).toBe("https://example.com/auth");
  });
});
