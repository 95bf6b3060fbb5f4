// The user as the query cache holds it: a plain JSON copy of the user's client
// fields, so that dehydrate() can carry it from the server to the browser. The
// CurrentUser it was made from is remembered beside it (a WeakMap, so nothing
// of it is serialized); a copy that arrived by hydration has none, and becomes
// a user whose fields are the copy's and whose methods act for the copy's user.
import type { CurrentUser, StackClientApp, Team } from "../runtime/index.js";
import { isSessionEndedError, sessionEndedError } from "../runtime/sessions/session-ended.js";
import { StackAssertionError } from "../runtime/errors.js";

type AnyFunction = (...args: never[]) => unknown;
/** Keys whose value is a function; `any`-typed fields (metadata) are fields. */
type MethodKey<T> = { [K in keyof T]-?: 0 extends 1 & T[K] ? never : T[K] extends AnyFunction ? K : never }[keyof T];
type FieldKey<T> = Exclude<keyof T, MethodKey<T>>;

/** The user's fields copied as they are; the others are converted (a Date, a team) or belong to the session. */
type UserCopiedField = Exclude<FieldKey<CurrentUser>, "signedUpAt" | "selectedTeam" | "currentSession" | "_internalSession">;

// Each list must name every key of its kind: TypeScript fails here when the
// runtime's CurrentUser or Team gains a field or a method, rather than a
// hydrated user silently lacking it.
const USER_FIELDS: { readonly [K in UserCopiedField]: true } = {
  id: true,
  displayName: true,
  primaryEmail: true,
  primaryEmailVerified: true,
  profileImageUrl: true,
  clientMetadata: true,
  clientReadOnlyMetadata: true,
  hasPassword: true,
  emailAuthEnabled: true,
  otpAuthEnabled: true,
  oauthProviders: true,
  passkeyAuthEnabled: true,
  isMultiFactorRequired: true,
  isAnonymous: true,
  isRestricted: true,
  restrictedReason: true,
};

const USER_METHODS: { readonly [K in MethodKey<CurrentUser>]: true } = {
  getAuthJson: true,
  getAuthHeaders: true,
  getAccessToken: true,
  getRefreshToken: true,
  signOut: true,
  registerPasskey: true,
  update: true,
  setDisplayName: true,
  setClientMetadata: true,
  setSelectedTeam: true,
  delete: true,
  sendVerificationEmail: true,
  updatePassword: true,
  setPassword: true,
  listTeams: true,
  getTeam: true,
  createTeam: true,
  leaveTeam: true,
  getTeamProfile: true,
  listTeamInvitations: true,
  listApiKeys: true,
  createApiKey: true,
  listContactChannels: true,
  createContactChannel: true,
  getActiveSessions: true,
  revokeSession: true,
  listPermissions: true,
  getPermission: true,
  hasPermission: true,
  getConnectedAccount: true,
};

/** What users of the internal project (the dashboard's) have besides; see CurrentInternalUser. */
const INTERNAL_PROJECT_ID = "internal";
const INTERNAL_USER_METHODS = { createProject: true, listOwnedProjects: true } as const;

const TEAM_FIELDS: { readonly [K in FieldKey<Team>]: true } = {
  id: true,
  displayName: true,
  profileImageUrl: true,
  clientMetadata: true,
  clientReadOnlyMetadata: true,
};

const TEAM_METHODS: { readonly [K in MethodKey<Team>]: true } = {
  inviteUser: true,
  listUsers: true,
  listInvitations: true,
  update: true,
  delete: true,
  createApiKey: true,
  listApiKeys: true,
};

/** Names this format; a copy made by another version of the format is not read as this one. */
const USER_JSON_KIND = "stackkit.user.v1";

/**
 * The fields of the user's selected team.
 *
 * @interface
 */
export type TeamJson = Pick<Team, FieldKey<Team>>;

/**
 * The user as the user query holds it, and as `dehydrate()` sends it to the
 * browser: the client fields of CurrentUser (never a server user's server-only
 * fields), `signedUpAt` as milliseconds, the selected team's fields.
 *
 * @interface
 */
export type UserJson = Pick<CurrentUser, UserCopiedField> & {
  readonly kind: typeof USER_JSON_KIND;
  readonly signedUpAtMillis: number;
  readonly selectedTeam: TeamJson | null;
};

/** The user each copy was made from, where this process made it. */
const madeFrom = new WeakMap<UserJson, CurrentUser>();
/** The user made of a hydrated copy for each app, so that every render gets the same object. */
const madeOf = new WeakMap<UserJson, WeakMap<StackClientApp, CurrentUser>>();

function pick<T extends object, K extends keyof T>(source: T, keys: { readonly [P in K]: true }): Pick<T, K> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of Object.keys(keys) as K[]) picked[key] = source[key];
  return picked as Pick<T, K>;
}

export function isUserJson(value: unknown): value is UserJson {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === USER_JSON_KIND;
}

/** The JSON copy of `user` for the query cache; the copy remembers `user`. */
export function userJsonOf(user: CurrentUser): UserJson {
  const json: UserJson = {
    kind: USER_JSON_KIND,
    ...pick(user, USER_FIELDS),
    signedUpAtMillis: user.signedUpAt.getTime(),
    selectedTeam: user.selectedTeam ? pick(user.selectedTeam, TEAM_FIELDS) : null,
  };
  madeFrom.set(json, user);
  return json;
}

/** Whether `json` came from elsewhere (hydration) rather than from a user this process fetched. */
export function isForeignUserJson(json: UserJson): boolean {
  return !madeFrom.has(json);
}

/** Hydrated copies found to be the user of the browser's own session. */
const checked = new WeakSet<UserJson>();

export function markChecked(json: UserJson): void {
  checked.add(json);
}

/** A hydrated copy not yet checked against the browser's session (hydrated-user.ts). */
export function isUncheckedUserJson(data: unknown): data is UserJson {
  return isUserJson(data) && !madeFrom.has(data) && !checked.has(data);
}

/**
 * The CurrentUser of what the user query holds: the user a copy was made from,
 * or, for a copy that arrived by hydration, a user built on it for `app`.
 * Anything else in the cache (a CurrentUser an app put there itself) is
 * returned as it is.
 */
export function userOf(app: StackClientApp, data: UserJson | CurrentUser): CurrentUser {
  if (!isUserJson(data)) return data;
  const made = madeFrom.get(data);
  if (made) return made;
  let perApp = madeOf.get(data);
  if (!perApp) madeOf.set(data, (perApp = new WeakMap()));
  let user = perApp.get(app);
  if (!user) perApp.set(app, (user = hydratedUser(app, data)));
  return user;
}

/** `names` as methods that call the same method of the object `target` resolves to. */
function delegated<T extends object>(names: object, target: () => Promise<T>): Record<string, unknown> {
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of Object.keys(names)) {
    methods[name] = async (...args) => {
      const resolved = (await target()) as Record<string, (...given: unknown[]) => unknown>;
      return resolved[name]!(...args);
    };
  }
  return methods;
}

/**
 * A CurrentUser made of a hydrated copy: its fields are the copy's, so the
 * first render needs no request. Its methods act through the user object of
 * the session the tab holds when the first of them is called (asked for once
 * per copy), and only if that is the copy's user: like every CurrentUser it
 * then acts for that session only. Once the tab holds nobody or someone else,
 * every call rejects with a SessionEndedError, from then on without a request.
 */
function hydratedUser(app: StackClientApp, json: UserJson): CurrentUser {
  let pinned: Promise<CurrentUser> | null = null;
  const live = (): Promise<CurrentUser> => {
    if (pinned) return pinned;
    const asked = app.getUser({ or: "anonymous-if-exists" }).then(async (user) => {
      if (user === null || user.id !== json.id) throw await sessionEndedError();
      return user;
    });
    // A transient failure is not kept: the next call asks again. A session that is over stays over.
    asked.catch((error: unknown) => {
      if (pinned === asked && !isSessionEndedError(error)) pinned = null;
    });
    return (pinned = asked);
  };
  const team = json.selectedTeam;
  const user = {
    ...pick(json, USER_FIELDS),
    signedUpAt: new Date(json.signedUpAtMillis),
    selectedTeam: team && Object.freeze({ ...team, ...delegated(TEAM_METHODS, () => teamOf(app, live, team.id)) }),
    currentSession: Object.freeze({
      getTokens: async (options?: Parameters<CurrentUser["currentSession"]["getTokens"]>[0]) =>
        (await live()).currentSession.getTokens(options),
    }),
    ...delegated(USER_METHODS, live),
    ...(app.projectId === INTERNAL_PROJECT_ID ? delegated(INTERNAL_USER_METHODS, live) : {}),
  };
  return Object.freeze(user) as unknown as CurrentUser;
}

/**
 * The team a hydrated selected team stands for. Its methods act on the team
 * by id, as a Team's do, even when the user has selected another one since.
 */
async function teamOf(app: StackClientApp, live: () => Promise<CurrentUser>, teamId: string): Promise<Team> {
  const user = await live();
  const team = user.selectedTeam?.id === teamId ? user.selectedTeam : await user.getTeam(teamId);
  if (team !== null) return team;
  // Not (or no longer) one of the user's teams: the service says why, as the
  // runtime's typed known error (the catalogue then loads with it, not with the hooks).
  await app.api.GET("/teams/{team_id}", { params: { path: { team_id: teamId } } });
  throw new StackAssertionError(`GET /teams/${teamId} answered, yet the team is not among the user's teams`);
}
