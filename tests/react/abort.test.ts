// React Query's cancellation reaches the request (issue: cancellation). Every
// query factory's function hands React Query's `signal` to the app method it
// calls, so cancelling the query (or its last component unmounting) aborts the
// request itself: the call's request timer is gone, not left to run out.
import { afterEach, describe, expect, it } from "vitest";
import {
  activeSessionsQueryOptions,
  apiKeysQueryOptions,
  connectedAccountQueryOptions,
  contactChannelsQueryOptions,
  createStackQueryClient,
  currentUserQueryOptions,
  ownedProjectsQueryOptions,
  permissionsQueryOptions,
  projectQueryOptions,
  stackQueryOptions,
  teamApiKeysQueryOptions,
  teamInvitationsQueryOptions,
  teamProfileQueryOptions,
  teamQueryOptions,
  teamsQueryOptions,
  teamUsersQueryOptions,
} from "../../react/index.js";
import type { CurrentUser, StackClientApp, Team } from "../../runtime/index.js";
import { TEAM_ID, world, type World, type WorldKind } from "../unit/app/abort-world.js";

interface QueryCase {
  readonly options: (app: StackClientApp, team: Team) => { readonly queryKey: readonly unknown[]; readonly queryFn?: unknown };
  readonly world?: WorldKind;
  /** The app shares this read between callers (the project): cancelling stops the wait, the read goes on. */
  readonly shared?: true;
  /** The query is the user's own, so the user is not in the cache beforehand. */
  readonly isUserQuery?: true;
}

const CASES: Record<string, QueryCase> = {
  currentUserQueryOptions: { options: (app) => currentUserQueryOptions(app), isUserQuery: true },
  projectQueryOptions: { options: (app) => projectQueryOptions(app), shared: true },
  teamsQueryOptions: { options: (app) => teamsQueryOptions(app) },
  teamQueryOptions: { options: (app) => teamQueryOptions(app, TEAM_ID) },
  contactChannelsQueryOptions: { options: (app) => contactChannelsQueryOptions(app) },
  "permissionsQueryOptions (project)": { options: (app) => permissionsQueryOptions(app, null) },
  "permissionsQueryOptions (team)": { options: (app, team) => permissionsQueryOptions(app, team) },
  apiKeysQueryOptions: { options: (app) => apiKeysQueryOptions(app) },
  teamApiKeysQueryOptions: { options: (_, team) => teamApiKeysQueryOptions(team) },
  teamProfileQueryOptions: { options: (app, team) => teamProfileQueryOptions(app, team) },
  teamUsersQueryOptions: { options: (_, team) => teamUsersQueryOptions(team) },
  teamInvitationsQueryOptions: { options: (_, team) => teamInvitationsQueryOptions(team) },
  activeSessionsQueryOptions: { options: (app) => activeSessionsQueryOptions(app) },
  connectedAccountQueryOptions: { options: (app) => connectedAccountQueryOptions(app, "github") },
  ownedProjectsQueryOptions: { options: (app) => ownedProjectsQueryOptions(app), world: "internal" },
  stackQueryOptions: { options: (app) => stackQueryOptions(app, "listTeams", { query: { user_id: "me" } }) },
};

const worlds: World[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.dispose();
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("cancelling a query", () => {
  it.each(Object.entries(CASES))("%s aborts its request", async (_, c) => {
    const w = world(c.world ?? "client");
    worlds.push(w);
    const user = (await w.app.getUser({ or: "throw" })) as CurrentUser;
    const [team] = await user.listTeams();
    const client = createStackQueryClient();
    // The user is known, as it is once a component has read it: the query's own request is the one that waits.
    if (!c.isUserQuery) await client.fetchQuery(currentUserQueryOptions(w.app));
    const options = c.options(w.app, team!);
    w.hang();
    const fetched = client.fetchQuery(options as Parameters<typeof client.fetchQuery>[0]);
    fetched.catch(() => undefined);
    for (let turn = 0; turn < 50 && w.requests.length === 0; turn++) await tick();
    expect(w.requests).toHaveLength(1);

    await client.cancelQueries({ queryKey: options.queryKey });
    await expect(fetched).rejects.toThrow();
    await tick();
    // An aborted request clears its timer; one that went on would still hold it.
    expect(w.activeTimers.size).toBe(c.shared ? 1 : 0);
  });
});
