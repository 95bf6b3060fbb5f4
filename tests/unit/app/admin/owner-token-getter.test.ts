// An admin app whose projectOwnerSession is a function answering the owner's access token (the
// official SDK's `() => Promise<string | null>` form): asked before each request, its token sent
// as x-stack-admin-access-token instead of any key, and never asked again for a rejected token.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { KnownErrors } from "../../../../generated/known-errors.js";
import { StackAdminApp, type StackAdminAppOptions } from "../../../../runtime/app/admin-app.js";
import { isStackError } from "../../../../runtime/errors.js";
import { answerAsDocumented } from "../../../helpers/documented-answers.js";
import { fakeService, json, jwt, knownError, testEnvironment, useFakeClock, type Handler } from "../../../helpers/fake-service.js";
import { rejectionOf, thrownBy } from "../../../helpers/outcome.js";
import { PROJECT_ID, stackHeadersOf } from "./admin-context.js";

/** An admin app on `getter`, and the service it calls. */
function ownerApp(getter: () => Promise<string | null>, handler: Handler = (r) => answerAsDocumented(r)) {
  const service = fakeService(handler);
  const app = new StackAdminApp({
    projectId: PROJECT_ID,
    tokenStore: null,
    browser: null,
    environment: testEnvironment(service.fetch).env,
    projectOwnerSession: getter,
  });
  return { app, service };
}

/** A getter answering `tokens` in turn (the last one from then on), counting its calls. */
function getterOf(...tokens: (string | null)[]) {
  let calls = 0;
  const getter = async () => tokens[Math.min(calls++, tokens.length - 1)] ?? null;
  return { getter, calls: () => calls };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("new StackAdminApp({ projectOwnerSession: () => Promise<string | null> })", () => {
  it("sends the getter's token with access type admin and no key headers, asking the getter before each request", async () => {
    const first = jwt({ sub: "owner-1" });
    const second = jwt({ sub: "owner-1", exp: 4102444800 });
    const { getter, calls } = getterOf(first, second);
    const { app, service } = ownerApp(getter, () => json({ token: "svix" }));
    expect(await app.getSvixToken()).toBe("svix");
    expect(await app.getSvixToken()).toBe("svix");
    expect(calls()).toBe(2);
    expect(stackHeadersOf(service.requests[0])).toEqual({
      "x-stack-project-id": PROJECT_ID,
      "x-stack-access-type": "admin",
      "x-stack-client-version": expect.stringMatching(/^js /),
      "x-stack-admin-access-token": first,
      "x-stack-override-error-status": "true",
    });
    expect(service.requests[1]!.headers["x-stack-admin-access-token"]).toBe(second);
  });

  it("sends no admin token (and still no keys) when the getter answers null, and the service's refusal is thrown", async () => {
    const { getter } = getterOf(null);
    const { app, service } = ownerApp(getter, () =>
      knownError(401, "ADMIN_AUTHENTICATION_REQUIRED", "You must provide an admin access token or a super secret admin key."),
    );
    expect(await rejectionOf(app.getSvixToken())).toBeInstanceOf(KnownErrors.AdminAuthenticationRequired);
    expect(stackHeadersOf(service.requests[0])).toEqual({
      "x-stack-project-id": PROJECT_ID,
      "x-stack-access-type": "admin",
      "x-stack-client-version": expect.stringMatching(/^js /),
      "x-stack-override-error-status": "true",
    });
  });

  it("throws a rejected token's error without asking the getter again or resending, as the official SDK does", async () => {
    const { getter, calls } = getterOf(jwt({ sub: "owner-1" }), jwt({ sub: "owner-1", exp: 4102444800 }));
    const { app, service } = ownerApp(getter, () => knownError(401, "ADMIN_ACCESS_TOKEN_EXPIRED", "Admin access token has expired."));
    expect(await rejectionOf(app.getSvixToken())).toBeInstanceOf(KnownErrors.AdminAccessTokenExpired);
    expect(service.requests).toHaveLength(1);
    expect(calls()).toBe(1);
  });

  it("refuses an answer that cannot be a token before sending anything", async () => {
    const { app, service } = ownerApp(async () => "undefined");
    const error = await rejectionOf(app.getSvixToken());
    expect(isStackError(error, "StackConfigurationError")).toBe(true);
    expect((error as Error).message).toBe(
      'The access token from projectOwnerSession() is the string "undefined", usually an environment variable that is not set. Pass null when there is no access token.',
    );
    expect(service.requests).toHaveLength(0);
  });

  it("is refused beside a key, and anything that is neither a session nor a function is refused", () => {
    const base = { projectId: PROJECT_ID, tokenStore: null, browser: null };
    const mixed = { ...base, projectOwnerSession: async () => null, superSecretAdminKey: "sak" };
    expect(thrownBy(() => new StackAdminApp(mixed as unknown as StackAdminAppOptions)).message).toContain("not both");
    expect(thrownBy(() => new StackAdminApp({ ...base, projectOwnerSession: "token" } as unknown as StackAdminAppOptions)).message).toBe(
      "projectOwnerSession must be a session of the internal project (an object with getTokens() and markAccessTokenExpired()), " +
        "or a function answering the project owner's access token (() => Promise<string | null>).",
    );
  });
});
