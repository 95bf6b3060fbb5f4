// What the dashboard reads besides the project: the usage metrics
// (`/internal/metrics`), computed from the state on the emulator's clock, and
// the token of the webhook portal (`/webhooks/svix-token`), which the emulator
// makes up (it has no Svix). As the service computes the metrics:
// - anonymous users count in every figure on 2.8.11; 2.8.86 leaves them out
//   unless `include_anonymous=true` (its login methods count everyone);
// - `daily_users` and `daily_active_users` have one point per UTC day from 30
//   days before today to today (31 points, oldest first);
// - `recently_registered`: server views, newest sign-up first (ties: the
//   greater id first), as the user list with `desc` gives them: five on 2.8.11;
//   on 2.8.86 a hundred, and restricted users only with `include_anonymous`
//   (which lists them too);
// - `recently_active`: up to five server views, most recently active first;
//   2.8.11 reads it from its event log, where a user appears once an access
//   token was issued to them (a user made by the server API without a session
//   is not there), 2.8.86 from the users' last activity;
// - `login_methods` counts the users' auth methods: an OAuth provider's id,
//   `password`, `passkey`, `otp`.
// The service reads activity from its event log, which the emulator does not
// keep: a user counts as active on the days of their last activity, their
// sign-up, and their sessions' start and last use. Without the service's IP
// geolocation, `users_by_country` is empty.
import type { Handlers } from "../engine/context.js";
import type { UserRecord } from "../engine/store.js";
import { randomString } from "../engine/tokens.js";
import { restrictedReasonOf, serverUserView } from "../engine/views.js";

const DAY_MS = 24 * 3600 * 1000;
const METRICS_DAYS = 30;
const RECENT_USERS = 5;
/** 2.8.86 lists this many recent sign-ups (a page of its user list); 2.8.11 five. */
const RECENT_SIGN_UPS_2_8_86 = 100;

/** `YYYY-MM-DD` (UTC) of a time. */
const dayOf = (millis: number) => new Date(millis).toISOString().slice(0, 10);

/** The 31 days of the metrics, oldest first. */
function days(now: number): string[] {
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  return Array.from({ length: METRICS_DAYS + 1 }, (_, i) => dayOf(today - (METRICS_DAYS - i) * DAY_MS));
}

/** A count per day, as `{date, activity}` points over `series`. */
function points(series: readonly string[], daysOfEach: readonly ReadonlySet<string>[]) {
  return series.map((date) => ({ date, activity: daysOfEach.filter((set) => set.has(date)).length }));
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

export const adminMiscHandlers = {
  getMetrics: ({ project, query }, ctx) => {
    const { store } = ctx;
    const all = store.usersOf(project.id);
    const countsAnonymous = ctx.profile.metricsCountAnonymous === "always" || query.get("include_anonymous") === "true";
    const users = countsAnonymous ? all : all.filter((user) => !user.is_anonymous);
    const activeDays = new Map<string, Set<string>>(
      users.map((user) => [user.id, new Set([dayOf(user.signed_up_at_millis), dayOf(user.last_active_at_millis)])]),
    );
    for (const session of store.sessions()) {
      const set = activeDays.get(session.user_id);
      if (!set) continue;
      set.add(dayOf(session.created_at_millis));
      if (session.last_used_at_millis !== null) set.add(dayOf(session.last_used_at_millis));
    }
    const series = days(ctx.now());
    const methods = new Map<string, number>();
    for (const user of all) for (const method of loginMethodsOf(user)) methods.set(method, (methods.get(method) ?? 0) + 1);
    // Ties keep the newer record first, as the lists of the service do.
    const newestFirst = (key: (user: UserRecord) => number) => [...users].reverse().sort((a, b) => key(b) - key(a));
    const whenAsked = ctx.profile.metricsCountAnonymous === "when-asked";
    const hadSession = new Set(store.sessions().map((session) => session.user_id));
    const signUps = whenAsked
      ? users
          .filter((user) => countsAnonymous || restrictedReasonOf(ctx.profile, store, user) === null)
          .sort((a, b) => b.signed_up_at_millis - a.signed_up_at_millis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
          .slice(0, RECENT_SIGN_UPS_2_8_86)
      : newestFirst((user) => user.signed_up_at_millis).slice(0, RECENT_USERS);
    return {
      body: {
        total_users: users.length,
        daily_users: points(
          series,
          users.map((user) => new Set([dayOf(user.signed_up_at_millis)])),
        ),
        daily_active_users: points(series, [...activeDays.values()]),
        users_by_country: {},
        recently_registered: signUps.map((user) => serverUserView(store, user, ctx.profile)),
        recently_active: newestFirst((user) => user.last_active_at_millis)
          .filter((user) => whenAsked || hadSession.has(user.id) || user.last_active_at_millis !== user.signed_up_at_millis)
          .slice(0, RECENT_USERS)
          .map((user) => serverUserView(store, user, ctx.profile)),
        login_methods: [...methods]
          .map(([method, count]) => ({ method, count }))
          .sort((a, b) => b.count - a.count || a.method.localeCompare(b.method)),
      },
    };
  },

  /** A fresh portal token per request, in the shape of Svix's app-portal tokens; it opens nothing. */
  createSvixToken: () => ({ status: 201, body: { token: `appsk_${randomString(32)}` } }),
} satisfies Handlers;
