// Every public async method accepts an AbortSignal (issue: cancellation). Each
// method of the client, server and admin apps and of every object they hand
// out is called with a signal against a service that never answers: aborting
// rejects it at once with a DOMException named AbortError and leaves no timer
// behind, and a signal aborted before the call sends nothing and navigates
// nowhere. The methods are enumerated from the objects themselves, so a method
// added without an entry in abort-subjects.ts fails here.
import { afterEach, describe, expect, it } from "vitest";
import type { CurrentUser, StackServerApp } from "../../../runtime/index.js";
import { json } from "../../helpers/fake-service.js";
import { SUBJECTS, type Case, type Subject } from "./abort-subjects.js";
import { world, type World } from "./abort-world.js";

const worlds: World[] = [];
function worldOf(...args: Parameters<typeof world>): World {
  const made = world(...args);
  worlds.push(made);
  return made;
}
afterEach(() => {
  for (const w of worlds.splice(0)) w.dispose();
});

/** Function-valued members: own (redirect methods, object literals' methods) and inherited from classes. */
function methodsOf(value: object): string[] {
  const names = new Set(Object.entries(value).flatMap(([name, member]) => (typeof member === "function" ? [name] : [])));
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (name !== "constructor" && typeof descriptor.value === "function") names.add(name);
    }
  }
  return [...names].sort();
}

interface Row {
  readonly label: string;
  readonly subject: Subject<never>;
  readonly case: Case<never>;
}

const rows: Row[] = SUBJECTS.flatMap((subject) =>
  Object.entries(subject.table).flatMap(([method, entry]) => {
    if (typeof entry === "string") return [];
    const calls: readonly Case<never>[] = Array.isArray(entry) ? entry : [entry as Case<never>];
    return calls.map((c, i) => ({ label: `${subject.name}.${method}${calls.length > 1 ? ` (form ${i + 1})` : ""}`, subject, case: c }));
  }),
);

/** A fresh world and its subject, with what building it sent forgotten. */
async function prepared(row: Row): Promise<{ w: World; target: never }> {
  const w = worldOf(row.subject.world);
  const target = await row.subject.make(w);
  if (row.case.stale) w.expireAccessToken();
  return { w, target };
}

type Outcome = { state: "pending" } | { state: "resolved"; value: unknown } | { state: "rejected"; error: unknown };

function watch(promise: Promise<unknown>): { readonly now: Outcome; readonly settled: Promise<Outcome> } {
  let now: Outcome = { state: "pending" };
  const settled = promise.then(
    (value): Outcome => (now = { state: "resolved", value }),
    (error: unknown): Outcome => (now = { state: "rejected", error }),
  );
  return {
    get now() {
      return now;
    },
    settled,
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Until the call is waiting on the service or on a timer (or has settled), a few turns at most. */
async function untilWaiting(w: World, outcome: { readonly now: Outcome }): Promise<void> {
  for (let turn = 0; turn < 50 && outcome.now.state === "pending" && w.requests.length === 0 && w.activeTimers.size === 0; turn++)
    await tick();
  await tick();
}

/** The outcome within `ms` of real time after the abort, so a call that ignores its signal fails instead of hanging the suite. */
async function within(ms: number, settled: Promise<Outcome>): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<Outcome>((resolve) => (timer = setTimeout(() => resolve({ state: "pending" }), ms)));
  const outcome = await Promise.race([settled, late]);
  clearTimeout(timer);
  return outcome;
}

function expectAbortError(outcome: Outcome): void {
  expect(outcome.state).toBe("rejected");
  const error = (outcome as { error: unknown }).error;
  expect(error).toBeInstanceOf(DOMException);
  expect((error as DOMException).name).toBe("AbortError");
}

describe.each(SUBJECTS.map((s) => [s.name, s] as const))("%s", (_, subject) => {
  it("has an entry for each of its methods, and none for a method it lacks", async () => {
    const w = worldOf(subject.world);
    const methods = methodsOf((await subject.make(w)) as object);
    expect(Object.keys(subject.table).sort()).toEqual(methods);
  });
});

describe("aborting a call while it waits", () => {
  it.each(rows.filter((row) => !row.case.local))("$label rejects at once with an AbortError", async (row) => {
    const { w, target } = await prepared(row);
    w.hang();
    const controller = new AbortController();
    const outcome = watch(row.case.call(target, controller.signal));
    await untilWaiting(w, outcome);
    expect(outcome.now, "the call should still be waiting before the abort").toEqual({ state: "pending" });
    controller.abort();
    expectAbortError(await within(1000, outcome.settled));
    await tick();
    // Work shared with other callers goes on (with its own request timer); nothing of the call's own stays.
    if (!row.case.shared) expect(w.activeTimers.size, "timers left behind").toBe(0);
  });
});

describe("a signal aborted before the call", () => {
  it.each(rows)("$label rejects with an AbortError, sends nothing and navigates nowhere", async (row) => {
    const { w, target } = await prepared(row);
    w.requests.length = 0;
    const navigated = w.navigationCount();
    const outcome = watch(row.case.call(target, AbortSignal.abort()));
    expectAbortError(await within(1000, outcome.settled));
    expect(w.requests).toEqual([]);
    expect(w.navigationCount()).toBe(navigated);
  });
});

describe("calls answered without a request", () => {
  const signedOut = { accessToken: null, refreshToken: null };
  it.each([
    ["getUser of nobody", "client", (w: World, signal: AbortSignal) => w.app.getUser({ tokenStore: signedOut, signal })],
    [
      "user.getTeam of an id that is no team's",
      "client",
      async (w: World, signal: AbortSignal) => (await w.app.getUser({ or: "throw" }))!.getTeam("x", { signal }),
    ],
    [
      "serverApp.getUser of an id that is no user's",
      "server",
      (w: World, signal: AbortSignal) => (w.app as StackServerApp).getUser("x", { signal }),
    ],
    [
      "serverApp.getTeam of an id that is no team's",
      "server",
      (w: World, signal: AbortSignal) => (w.app as StackServerApp).getTeam("x", { signal }),
    ],
  ] as const)("%s still rejects when the signal is already aborted", async (_, kind, call) => {
    const w = worldOf(kind);
    expectAbortError(await within(1000, watch(call(w, AbortSignal.abort())).settled));
  });
});

describe("the low-level api client", () => {
  it.each([
    ["GET", (w: World, signal: AbortSignal) => w.app.api.GET("/users/me", { signal })],
    [
      "POST",
      (w: World, signal: AbortSignal) =>
        w.app.api.POST("/auth/password/sign-in", { body: { email: "a@example.com", password: "pw" }, signal }),
    ],
  ] as const)("%s takes the signal in its init", async (_, call) => {
    const w = worldOf("client");
    w.hang();
    const controller = new AbortController();
    const outcome = watch(call(w, controller.signal));
    await untilWaiting(w, outcome);
    expect(outcome.now.state).toBe("pending");
    controller.abort();
    expectAbortError(await within(1000, outcome.settled));
    expect(w.activeTimers.size).toBe(0);
  });
});

describe("waits between attempts", () => {
  it("a Retry-After wait ends at once when the call is aborted, and its timer with it", async () => {
    const w = worldOf("client", (sent) =>
      sent.path.startsWith("/api/v1/teams") ? json({ error: "slow down" }, { status: 429, headers: { "retry-after": "30" } }) : null,
    );
    const user = (await w.app.getUser({ or: "throw" })) as CurrentUser;
    w.requests.length = 0;
    const controller = new AbortController();
    const outcome = watch(user.listTeams({ signal: controller.signal }));
    await untilWaiting(w, outcome);
    expect(w.requests).toEqual(["GET /teams"]);
    expect(outcome.now.state).toBe("pending");
    controller.abort();
    expectAbortError(await within(1000, outcome.settled));
    expect(w.activeTimers.size).toBe(0);
    expect(w.requests).toEqual(["GET /teams"]);
  });
});

describe("objects a call hands out", () => {
  it("keep working after the signal of the call that made them aborts", async () => {
    const w = worldOf("client");
    const controller = new AbortController();
    const user = (await w.app.getUser({ or: "throw", signal: controller.signal })) as CurrentUser;
    const [team] = await user.listTeams({ signal: controller.signal });
    controller.abort();
    await expect(team!.listUsers()).resolves.toHaveLength(1);
    await expect(user.listContactChannels()).resolves.toHaveLength(1);
  });

  it("keep working after another call's signal aborts", async () => {
    const w = worldOf("server");
    const app = w.app as StackServerApp;
    const [listed] = await app.listUsers({ signal: new AbortController().signal });
    w.hang();
    const other = new AbortController();
    const outcome = watch(listed!.listTeams({ signal: other.signal }));
    await untilWaiting(w, outcome);
    other.abort();
    expectAbortError(await within(1000, outcome.settled));
    w.answer();
    await expect(listed!.update({ displayName: "Ada" })).resolves.toBeUndefined();
    await expect(listed!.listTeams()).resolves.toHaveLength(1);
  });
});

describe("the tables", () => {
  it("cover every public async method", () => {
    // A count that moves only with the API: read it in the report, and update it with the tables.
    const methods = SUBJECTS.reduce((n, s) => n + Object.values(s.table).filter((e) => typeof e !== "string").length, 0);
    expect({ subjects: SUBJECTS.length, methods, calls: rows.length }).toMatchInlineSnapshot(`
      {
        "calls": 383,
        "methods": 356,
        "subjects": 28,
      }
    `);
  });
});
