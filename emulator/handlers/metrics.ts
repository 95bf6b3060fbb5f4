// The dashboard's usage metrics (`GET /internal/metrics`), computed as the
// service computes them (apps/backend/src/app/api/latest/internal/metrics/route.tsx
// at each version) from the state on the emulator's clock:
// - anonymous users count in every figure on 2.8.11; 2.8.86 leaves them out
//   unless `include_anonymous=true` (its login methods count everyone);
// - `daily_users` (sign-ups) and `daily_active_users` have one point per UTC day
//   from 30 days before today to today (31 points, oldest first);
// - activity is the service's log of issued access tokens (engine/activity.ts),
//   which outlives deleted users: 2.8.11 counts a day's users over the 30 days
//   before now, takes a user's country from their latest event that has one and
//   `recently_active` from the five latest users of the log, less those deleted
//   since; 2.8.86 counts within its window (today included), takes countries
//   from its events likewise and `recently_active` from the users' last
//   activity (five, anonymous ones only with `include_anonymous`);
// - `recently_registered`: server views, newest sign-up first (ties: the
//   greater id first), as the user list with `desc` gives them: five on 2.8.11;
//   on 2.8.86 a hundred, and restricted users only with `include_anonymous`
//   (which lists them too);
// - `login_methods` counts the users' auth methods: an OAuth provider's id,
//   `password`, `passkey`, `otp`.
// 2.8.86 adds its overviews (metrics-overviews.ts).
import type { EmulatorContext, EmulatorRequest } from "../engine/context.js";
import { DAY_MS, dayOf, METRICS_DAYS, metricsWindow, points, usersByDay } from "../engine/activity.js";
import type { ActivityEventRecord, UserRecord } from "../engine/store.js";
import { restrictedReasonOf, serverUserView } from "../engine/views.js";
import { metricsOverviews } from "./metrics-overviews.js";

const RECENT_USERS = 5;
/** 2.8.86 lists this many recent sign-ups (a page of its user list); 2.8.11 five. */
const RECENT_SIGN_UPS_2_8_86 = 100;

/** Users by the country of their latest event that has one. */
function usersByCountry(events: readonly ActivityEventRecord[]): Record<string, number> {
  const latest = new Map<string, ActivityEventRecord>();
  for (const event of events) {
    if (event.end_user?.country_code === undefined) continue;
    const seen = latest.get(event.user_id);
    if (!seen || event.at_millis >= seen.at_millis) latest.set(event.user_id, event);
  }
  const counts = new Map<string, number>();
  for (const { end_user } of latest.values()) {
    const country = end_user?.country_code as string;
    counts.set(country, (counts.get(country) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
}

/** The methods a user signs in with, as the service names them. */
function loginMethodsOf(user: UserRecord): string[] {
  return [
    ...user.oauth_providers.map((provider) => provider.id.toLowerCase()),
    ...(user.password_hash !== null ? ["password"] : []),
    ...(user.passkey_auth_enabled ? ["passkey"] : []),
    ...(user.otp_auth_enabled ? ["otp"] : []),
  ];
}

/** 2.8.11's recently active users: the latest five users of the event log, less those deleted since. */
function latestInLog(ctx: EmulatorContext, events: readonly ActivityEventRecord[]): UserRecord[] {
  const ids: string[] = [];
  for (const event of [...events].reverse().sort((a, b) => b.at_millis - a.at_millis)) {
    if (!ids.includes(event.user_id)) ids.push(event.user_id);
  }
  return ids.slice(0, RECENT_USERS).flatMap((id) => ctx.store.user(id) ?? []);
}

/** What `GET /internal/metrics` answers for the request's project. */
export function metricsOf({ project, query }: EmulatorRequest, ctx: EmulatorContext): Record<string, unknown> {
  const { store, profile } = ctx;
  const now = ctx.now();
  const all = store.usersOf(project.id);
  const countsAnonymous = profile.metricsCountAnonymous === "always" || query.get("include_anonymous") === "true";
  const users = countsAnonymous ? all : all.filter((user) => !user.is_anonymous);
  const log = store.activityEventsOf(project.id).filter((event) => countsAnonymous || !event.is_anonymous);
  const window = metricsWindow(now);
  const fromLog = profile.activityMetrics === "user-activity-events";
  // 2.8.11 counts the 30 days before now; 2.8.86 its window of whole days.
  const active = fromLog
    ? log.filter((event) => event.at_millis >= now - METRICS_DAYS * DAY_MS && event.at_millis <= now)
    : log.filter((event) => event.at_millis >= window.since && event.at_millis < window.untilExclusive);
  const methods = new Map<string, number>();
  for (const user of all) for (const method of loginMethodsOf(user)) methods.set(method, (methods.get(method) ?? 0) + 1);
  // Ties keep the newer record first, as the lists of the service do.
  const newestFirst = (key: (user: UserRecord) => number) => [...users].reverse().sort((a, b) => key(b) - key(a));
  const signUps = fromLog
    ? newestFirst((user) => user.signed_up_at_millis).slice(0, RECENT_USERS)
    : users
        .filter((user) => countsAnonymous || restrictedReasonOf(profile, store, user) === null)
        .sort((a, b) => b.signed_up_at_millis - a.signed_up_at_millis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .slice(0, RECENT_SIGN_UPS_2_8_86);
  const recentlyActive = fromLog ? latestInLog(ctx, log) : newestFirst((user) => user.last_active_at_millis).slice(0, RECENT_USERS);
  return {
    total_users: users.length,
    daily_users: points(
      window.days,
      new Map(window.days.map((day) => [day, new Set(users.filter((u) => dayOf(u.signed_up_at_millis) === day).map((u) => u.id))])),
    ),
    daily_active_users: points(window.days, usersByDay(active)),
    users_by_country: usersByCountry(log),
    recently_registered: signUps.map((user) => serverUserView(store, user, profile)),
    recently_active: recentlyActive.map((user) => serverUserView(store, user, profile)),
    login_methods: [...methods]
      .map(([method, count]) => ({ method, count }))
      .sort((a, b) => b.count - a.count || a.method.localeCompare(b.method)),
    ...(!fromLog && metricsOverviews(ctx, project.id, { now, window, log, countsAnonymous })),
  };
}
