// `const { user } = await app.getUser()` (a hook's habit) reads `user.user`: as in the official
// SDK, every user object answers that read with an error saying what to write instead, and
// nothing else of the user changes (its keys, its spread, its JSON).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import "../../../helpers/lazy-modules.js";
import { StackClientApp } from "../../../../runtime/app/client-app.js";
import { StackServerApp } from "../../../../runtime/app/server-app.js";
import { isStackError } from "../../../../runtime/errors.js";
import { createMemoryTokenStore } from "../../../../runtime/sessions/tokens/memory.js";
import { signedInTokens } from "../../../helpers/app-context.js";
import { answerAsDocumented, documentedExample } from "../../../helpers/documented-answers.js";
import { fakeService, json, testEnvironment, useFakeClock } from "../../../helpers/fake-service.js";
import { thrownBy } from "../../../helpers/outcome.js";

const MESSAGE =
  "This is already the user: getUser() and useUser() answer the user object itself, which has no `user` field. Write `const user = await app.getUser()` (or `const user = useUser()`), not `const { user } = …`.";
const USER_ID = (documentedExample("ServerUser") as { id: string }).id;

function apps() {
  const service = fakeService((request) => {
    if (request.path === "/api/v1/users/me" && request.headers["x-stack-access-type"] === "client") {
      return json(documentedExample("ClientUser"));
    }
    return answerAsDocumented(request);
  });
  const { env } = testEnvironment(service.fetch);
  const options = { projectId: "proj-1", publishableClientKey: "pck-1", environment: env, browser: null } as const;
  return {
    client: new StackClientApp({ ...options, tokenStore: createMemoryTokenStore(signedInTokens()) }),
    server: new StackServerApp({ ...options, secretServerKey: "ssk-1", tokenStore: createMemoryTokenStore(signedInTokens()) }),
  };
}

/** Reading `user` throws the guard's error; the object's own keys, spread and JSON do not have it. */
function expectGuarded(user: object) {
  const error = thrownBy(() => (user as { user?: unknown }).user);
  expect(isStackError(error, "StackConfigurationError")).toBe(true);
  expect(error.message).toBe(MESSAGE);
  expect(() => {
    const { user: destructured } = user as { user?: unknown };
    return destructured;
  }).toThrow(MESSAGE);
  expect(Object.keys(user)).not.toContain("user");
  expect("user" in { ...user }).toBe(false);
  expect(JSON.parse(JSON.stringify(user))).not.toHaveProperty("user");
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("reading `user` of a user object", () => {
  it("throws the official SDK's hint on the client's signed-in user, whose fields read as before", async () => {
    const user = await apps().client.getUser({ or: "throw" });
    expectGuarded(user);
    expect(user.primaryEmail).toBe("ada@example.com");
  });

  it("throws it on a server's user by id, its signed-in user, and a team's member", async () => {
    const { server } = apps();
    const byId = await server.getUser(USER_ID);
    expectGuarded(byId!);
    expectGuarded(await server.getUser({ or: "throw" }));
    const team = await server.getTeam((documentedExample("ServerTeam") as { id: string }).id);
    const [member] = await team!.listUsers();
    expectGuarded(member!);
    expect(member!.teamProfile).toBeDefined();
  });
});
