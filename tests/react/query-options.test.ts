// stackQueryOptions: a factory for every read of the generated table, with a
// stable key, the exact request, the wire JSON as data, and typed errors in
// React Query's state, also when an error answer has no body.
import { HttpResponse } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../generated/operations.js";
import {
  createStackQueryClient,
  currentUserQueryOptions,
  invalidateOperations,
  projectQueryOptions,
  STACK_READ_OPERATIONS,
  stackQueryKey,
  stackQueryOptions,
  teamsQueryOptions,
} from "../../react/index.js";
import { isStackError, StackConfigurationError } from "../../runtime/errors.js";
import { ResponseFormatError } from "../../runtime/http/request-errors.js";
import { KnownErrors } from "../../generated/known-errors.js";
import { example, get, knownErrorResponse, signedIn, stackServer, TEAM_ID, testApp } from "./stack-test.js";

const { server, requests, calls } = stackServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  requests.length = 0;
});
afterAll(() => server.close());

/** Runs the options through a QueryClient and returns what React Query holds. */
async function settle(options: { queryKey: readonly unknown[]; queryFn: () => Promise<unknown> }) {
  const client = createStackQueryClient();
  await client.fetchQuery(options).catch(() => undefined);
  return client.getQueryState(options.queryKey)!;
}

describe("the read operations", () => {
  it("are every GET of the generated table except the OAuth authorize navigation", () => {
    const gets = Object.entries(operations)
      .filter(([, info]) => info.method === "GET")
      .map(([id]) => id);
    expect(STACK_READ_OPERATIONS).toEqual(gets.filter((id) => id !== "startOAuthAuthorization"));
    expect(STACK_READ_OPERATIONS).toHaveLength(30);
  });

  it.each(STACK_READ_OPERATIONS.map((id) => [id]))("%s has a factory keyed by its operationId", (id) => {
    const { app } = testApp();
    const options = (stackQueryOptions as unknown as (app: unknown, id: string, params?: unknown) => { queryKey: unknown })(app, id, {});
    expect(options.queryKey).toEqual(["stackkit", id, {}]);
  });
});

describe("stackQueryOptions", () => {
  it("keys the read by operationId and openapi-fetch's parameters", () => {
    const { app } = testApp();
    expect(stackQueryOptions(app, "getCurrentProject").queryKey).toEqual(stackQueryKey("getCurrentProject"));
    expect(stackQueryOptions(app, "listTeams", { query: { user_id: "me" } }).queryKey).toEqual([
      "stackkit",
      "listTeams",
      { query: { user_id: "me" } },
    ]);
  });

  it("sends the GET with its query and resolves to the wire JSON", async () => {
    server.use(get("/teams", () => HttpResponse.json(example("ClientTeamList"))));
    const { app } = testApp({ tokens: signedIn() });
    const state = await settle(stackQueryOptions(app, "listTeams", { query: { user_id: "me" } }));
    expect(calls()).toEqual(["GET /teams?user_id=me"]);
    expect(state.data).toEqual(example("ClientTeamList"));
    expect(requests[0]!.headers["x-stack-project-id"]).toBe("proj-1");
  });

  it("fills path parameters", async () => {
    server.use(get("/teams/:id", () => HttpResponse.json(example("ClientTeam"))));
    const { app } = testApp({ tokens: signedIn() });
    const state = await settle(stackQueryOptions(app, "getTeam", { path: { team_id: TEAM_ID } }));
    expect(calls()).toEqual([`GET /teams/${TEAM_ID}`]);
    expect(state.data).toMatchObject({ id: TEAM_ID, display_name: "Acme Engineering" });
  });

  it("puts a known error into React Query as its KnownErrors class", async () => {
    server.use(get("/teams/:id", () => knownErrorResponse(404, "TEAM_NOT_FOUND", "Team not found.")));
    const { app } = testApp({ tokens: signedIn() });
    const state = await settle(stackQueryOptions(app, "getTeam", { path: { team_id: TEAM_ID } }));
    expect(state.status).toBe("error");
    expect(state.error).toBeInstanceOf(KnownErrors.TeamNotFound);
    expect(state.error).toMatchObject({ code: "TEAM_NOT_FOUND", status: 404, message: "Team not found." });
  });

  it("a known-error header with an empty body is the runtime's StackAssertionError, not undefined", async () => {
    server.use(get("/teams/:id", () => knownErrorResponse(404, "TEAM_NOT_FOUND", "", { emptyBody: true })));
    const { app } = testApp({ tokens: signedIn() });
    const state = await settle(stackQueryOptions(app, "getTeam", { path: { team_id: TEAM_ID } }));
    expect(state.status).toBe("error");
    expect(isStackError(state.error, "StackAssertionError")).toBe(true);
    expect(String((state.error as Error).message)).toContain("x-stack-known-error");
  });

  it("an error status with an empty body and no known error is an HttpError with that status", async () => {
    server.use(get("/projects/current", () => new HttpResponse(null, { status: 404 })));
    const { app } = testApp();
    const state = await settle(stackQueryOptions(app, "getCurrentProject"));
    expect(state.status).toBe("error");
    expect(isStackError(state.error, "HttpError")).toBe(true);
    expect(state.error).toMatchObject({ status: 404, body: "" });
  });

  it("a success without a body is a ResponseFormatError naming the operation", async () => {
    server.use(get("/projects/current", () => new HttpResponse(null, { status: 200 })));
    const { app } = testApp();
    const state = await settle(stackQueryOptions(app, "getCurrentProject"));
    expect(state.error).toBeInstanceOf(ResponseFormatError);
    expect(state.error).toMatchObject({
      operationId: "getCurrentProject",
      status: 200,
      path: "$",
      message: "getCurrentProject: the service answered HTTP 200 with a body that is not JSON (content-type: none)",
    });
  });

  it("refuses an operation that is not a read, saying which are", () => {
    const { app } = testApp();
    const call = () => (stackQueryOptions as unknown as (app: unknown, id: string) => unknown)(app, "createTeam");
    expect(call).toThrow(StackConfigurationError);
    expect(call).toThrow(/"createTeam" is not a read operation; use one of listSessions, getCurrentUser/);
  });

  it("refuses a missing app with a StackConfigurationError", () => {
    expect(() => (stackQueryOptions as unknown as (app: unknown, id: string) => unknown)(undefined, "getCurrentProject")).toThrow(
      StackConfigurationError,
    );
  });
});

describe("keys of the wire factories and of the hooks", () => {
  it("never coincide, since the two hold different shapes (wire JSON, objects)", () => {
    const { app } = testApp();
    expect(currentUserQueryOptions(app).queryKey).toEqual(["stackkit", "getCurrentUser", { user_id: "me" }]);
    expect(stackQueryOptions(app, "getCurrentUser").queryKey).toEqual(["stackkit", "getCurrentUser", {}]);
    expect(projectQueryOptions(app).queryKey).toEqual(["stackkit", "getCurrentProject", { project_id: "proj-1" }]);
    expect(teamsQueryOptions(app).queryKey).not.toEqual(stackQueryOptions(app, "listTeams", { query: { user_id: "me" } }).queryKey);
  });

  it("share the operation prefix, so one invalidation reaches both and nothing else", async () => {
    const { app } = testApp();
    const client = createStackQueryClient();
    const wire = stackQueryOptions(app, "listTeams", { query: { user_id: "me" } }).queryKey;
    const objects = teamsQueryOptions(app).queryKey;
    const other = stackQueryOptions(app, "getCurrentProject").queryKey;
    for (const key of [wire, objects, other]) client.setQueryData(key as readonly unknown[], []);
    await invalidateOperations(client, ["listTeams"]);
    const invalidated = (key: readonly unknown[]) => client.getQueryState(key)?.isInvalidated;
    expect([invalidated(wire), invalidated(objects), invalidated(other)]).toEqual([true, true, false]);
  });
});
