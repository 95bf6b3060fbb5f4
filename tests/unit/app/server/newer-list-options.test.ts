// What the hosted service's listings took in 2.8.102, as the newest official SDK offers it:
// listUsers({ orderBy: "lastActiveAt" }) and the paged, searched and sorted listTeams of the
// server app and of a server user (`nextCursor` from `pagination.next_cursor`). A 2.8.86 or
// 2.8.11 service refuses them with SCHEMA_ERROR; the call rejects with a ServiceVersionError
// after that one request, and sends nothing again without them. Facts: issue31/FACTS.md §7;
// the refusals' wording from the service's source at 2.8.86 (users/crud.tsx order_by oneOf,
// teams/crud.tsx query schema of user_id and add_current_user).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isKnownError } from "../../../../generated/known-error-guard.js";
import { isStackError } from "../../../../runtime/errors.js";
import { ServiceVersionError } from "../../../../runtime/http/request-errors.js";
import { json, knownError, useFakeClock } from "../../../helpers/fake-service.js";
import { rejectionOf } from "../../../helpers/outcome.js";
import { expectServerRequests, sent, setup, TEAM, TEAM_ID, USER, USER_ID, withServerUser } from "./setup.js";

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

const OTHER_TEAM = "4d2c8e1a-6b3f-4a9d-8c5e-1f7a3b9d2e6c";

/** The SCHEMA_ERROR the service answers for the problems of `GET path`, as 2.8.86 and 2.8.11 word it. */
function schemaError(path: string, ...problems: string[]) {
  const message = `Request validation failed on GET /api/v1${path}:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
  return knownError(400, "SCHEMA_ERROR", message, { message });
}

const teamPage = (ids: string[], next: string | null) =>
  json({ items: ids.map((id) => ({ ...TEAM, id })), is_paginated: true, pagination: { next_cursor: next } });

const ORDER_REFUSED = "query.order_by must be one of the following values: signed_up_at";
const LAST_ACTIVE_MESSAGE =
  'StackServerApp.listUsers cannot work with this Stack Auth service, which answers as 2.8.86 does: it orders users by when they signed up only, and refused order_by=last_active_at (orderBy: "lastActiveAt" came with 2.8.102). Instead: orderBy: "signedUpAt", or no orderBy; to find the users active last, read the pages and sort them by lastActiveAt';
const teamsMessage = (method: string, refused: string) =>
  `${method} cannot work with this Stack Auth service, which answers as 2.8.86 does: it lists every team at once, without pages, search or order, and refused ${refused} (these options came with 2.8.102). Instead: leave cursor, limit, query, orderBy and desc out: the call then answers every team (nextCursor null), to page, search and sort in the app`;

describe("listUsers({ orderBy: 'lastActiveAt' })", () => {
  it("sends order_by=last_active_at with the other options, and answers the page with nextCursor", async () => {
    const { app, service } = setup(() => json({ items: [USER], is_paginated: true, pagination: { next_cursor: "c2" } }));
    const users = await app.listUsers({ orderBy: "lastActiveAt", desc: true, limit: 5 });
    expect(sent(service)).toEqual([{ method: "GET", path: "/users?limit=5&order_by=last_active_at&desc=true" }]);
    expectServerRequests(service);
    expect(users.map((u) => u.id)).toEqual([USER_ID]);
    expect(users.nextCursor).toBe("c2");
  });

  it("rejects with a ServiceVersionError when the service orders by signed_up_at only (2.8.86, 2.8.11), after that one request", async () => {
    const { app, service } = setup(() => schemaError("/users?order_by=last_active_at", ORDER_REFUSED));
    const error = await rejectionOf(app.listUsers({ orderBy: "lastActiveAt" }));
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect(error).toMatchObject({
      name: "ServiceVersionError",
      method: "StackServerApp.listUsers",
      serviceVersion: "2.8.86",
      message: LAST_ACTIVE_MESSAGE,
    });
    expect(sent(service).map((r) => r.path)).toEqual(["/users?order_by=last_active_at"]);
  });

  it("2.8.11 refuses the order and the anonymous flag together: the same ServiceVersionError, without asking again without the flag", async () => {
    const { app, service } = setup(() =>
      schemaError(
        "/users?order_by=last_active_at&include_anonymous=true",
        "query contains unknown properties: include_anonymous",
        ORDER_REFUSED,
      ),
    );
    const error = await rejectionOf(app.listUsers({ orderBy: "lastActiveAt", includeAnonymous: true }));
    expect(error).toMatchObject({ name: "ServiceVersionError", message: LAST_ACTIVE_MESSAGE });
    expect(sent(service).map((r) => r.path)).toEqual(["/users?order_by=last_active_at&include_anonymous=true"]);
  });

  it("a refusal of something else is thrown as the service answered it", async () => {
    const { app } = setup(() => schemaError("/users?limit=0&order_by=last_active_at", "query.limit must be greater than or equal to 1"));
    const error = await rejectionOf(app.listUsers({ orderBy: "lastActiveAt", limit: 0 }));
    expect(isKnownError(error, "SCHEMA_ERROR")).toBe(true);
  });

  it("refuses an order it does not have before sending anything, naming both", async () => {
    const { app, service } = setup(() => json({ items: [] }));
    for (const orderBy of ["createdAt", "constructor"]) {
      const error = await rejectionOf(app.listUsers({ orderBy: orderBy as never }));
      expect(isStackError(error, "StackConfigurationError")).toBe(true);
      expect((error as Error).message).toBe(`listUsers can order by "signedUpAt" or "lastActiveAt" only, not ${JSON.stringify(orderBy)}.`);
    }
    expect(service.requests).toEqual([]);
  });
});

describe("app.listTeams(options)", () => {
  it("without options is GET /teams as before: every team, nextCursor null", async () => {
    const { app, service } = setup(() => json({ items: [TEAM], is_paginated: false }));
    const teams = await app.listTeams();
    expect(sent(service)).toEqual([{ method: "GET", path: "/teams" }]);
    expect(teams.map((t) => t.id)).toEqual([TEAM_ID]);
    expect(teams.nextCursor).toBeNull();
    expect(Array.isArray(teams)).toBe(true);
  });

  it("sends every option as the wire's query and answers the page with nextCursor", async () => {
    const { app, service } = setup(() => teamPage([TEAM_ID], "c2"));
    const teams = await app.listTeams({ cursor: "c1", limit: 10, orderBy: "createdAt", desc: true, query: "acme" });
    expect(sent(service)).toEqual([{ method: "GET", path: "/teams?cursor=c1&limit=10&order_by=created_at&desc=true&query=acme" }]);
    expectServerRequests(service);
    expect(teams.map((t) => t.id)).toEqual([TEAM_ID]);
    expect(teams.nextCursor).toBe("c2");
  });

  it("reads two pages by passing nextCursor back as cursor; desc=false is sent as such", async () => {
    const { app, service } = setup((r) => (r.path.includes("cursor=c2") ? teamPage([OTHER_TEAM], null) : teamPage([TEAM_ID], "c2")));
    const first = await app.listTeams({ limit: 1, desc: false });
    const second = await app.listTeams({ limit: 1, desc: false, cursor: first.nextCursor! });
    expect(sent(service).map((r) => r.path)).toEqual(["/teams?limit=1&desc=false", "/teams?cursor=c2&limit=1&desc=false"]);
    expect([...first, ...second].map((t) => t.id)).toEqual([TEAM_ID, OTHER_TEAM]);
    expect(second.nextCursor).toBeNull();
  });

  it("rejects with a ServiceVersionError naming the options the service refused (2.8.86, 2.8.11), after that one request", async () => {
    const { app, service } = setup(() => schemaError("/teams?limit=10&query=acme", "query contains unknown properties: limit, query"));
    const error = await rejectionOf(app.listTeams({ limit: 10, query: "acme" }));
    expect(error).toBeInstanceOf(ServiceVersionError);
    expect(error).toMatchObject({
      method: "StackServerApp.listTeams",
      serviceVersion: "2.8.86",
      replacement:
        "leave cursor, limit, query, orderBy and desc out: the call then answers every team (nextCursor null), to page, search and sort in the app",
      message: teamsMessage("StackServerApp.listTeams", "limit, query"),
    });
    expect(service.requests).toHaveLength(1);
  });

  it("names orderBy by the app's name for order_by", async () => {
    const { app } = setup(() => schemaError("/teams?order_by=created_at&desc=true", "query contains unknown properties: order_by, desc"));
    const error = await rejectionOf(app.listTeams({ orderBy: "createdAt", desc: true }));
    expect((error as Error).message).toBe(teamsMessage("StackServerApp.listTeams", "orderBy, desc"));
  });

  it("another refusal is thrown as the service answered it", async () => {
    const { app } = setup(() => schemaError("/teams?cursor=x", "query.cursor must be a valid UUID"));
    expect(isKnownError(await rejectionOf(app.listTeams({ cursor: "x" })), "SCHEMA_ERROR")).toBe(true);
  });

  it("refuses an order it does not have, and options that are no object, before sending anything", async () => {
    const { app, service } = setup(() => json({ items: [] }));
    const order = await rejectionOf(app.listTeams({ orderBy: "displayName" as never }));
    expect(isStackError(order, "StackConfigurationError")).toBe(true);
    expect((order as Error).message).toBe('StackServerApp.listTeams can order by "createdAt" only, not "displayName".');
    const shape = await rejectionOf(app.listTeams("acme" as never));
    expect((shape as Error).message).toBe(
      'StackServerApp.listTeams needs options: { cursor?, limit?, orderBy?: "createdAt", desc?, query? }.',
    );
    expect(service.requests).toEqual([]);
  });
});

describe("a server user's listTeams(options)", () => {
  it("without options is GET /teams?user_id= as before, nextCursor null; with them, user_id first, then the page's options", async () => {
    const { user, service } = await withServerUser({
      [`GET /teams?user_id=${USER_ID}`]: () => json({ items: [TEAM], is_paginated: false }),
      [`GET /teams?user_id=${USER_ID}&limit=1&order_by=created_at`]: () => teamPage([TEAM_ID], "c2"),
    });
    const all = await user.listTeams();
    const page = await user.listTeams({ limit: 1, orderBy: "createdAt" });
    expect(sent(service).map((r) => r.path)).toEqual([
      `/teams?user_id=${USER_ID}`,
      `/teams?user_id=${USER_ID}&limit=1&order_by=created_at`,
    ]);
    expect(all.nextCursor).toBeNull();
    expect(page.nextCursor).toBe("c2");
    expect(page.map((t) => t.id)).toEqual([TEAM_ID]);
  });

  it("rejects with a ServiceVersionError naming user.listTeams where the service refuses the options", async () => {
    const { user, service } = await withServerUser({
      [`GET /teams?user_id=${USER_ID}&cursor=c1`]: () =>
        schemaError(`/teams?user_id=${USER_ID}&cursor=c1`, "query contains unknown properties: cursor"),
    });
    const error = await rejectionOf(user.listTeams({ cursor: "c1" }));
    expect(error).toMatchObject({
      name: "ServiceVersionError",
      method: "user.listTeams",
      message: teamsMessage("user.listTeams", "cursor"),
    });
    expect(service.requests).toHaveLength(1);
  });

  it("getTeam reads all of the user's teams, whatever else its options carry", async () => {
    const { user, service } = await withServerUser({
      [`GET /teams?user_id=${USER_ID}`]: () => json({ items: [TEAM], is_paginated: false }),
    });
    expect((await user.getTeam(TEAM_ID, { limit: 1 } as never))?.id).toBe(TEAM_ID);
    expect(sent(service).map((r) => r.path)).toEqual([`/teams?user_id=${USER_ID}`]);
  });
});
