// 2.8.86's overviews in `GET /internal/metrics`, computed as its route computes
// them from what the emulator has (apps/backend/src/app/api/latest/internal/metrics/route.tsx):
// - `auth_overview`: users by verified e-mail (any verified e-mail channel),
//   anonymous users, teams, monthly active users and the daily split of active
//   users into new (first active that day), retained (active the day before)
//   and reactivated ones, from the log of issued access tokens; teams are never
//   active (the service logs no team with a token);
// - `email_overview`: the outbox (the flows' e-mails, not test e-mails), each
//   sent (`SENT`, ok) unless it failed (`SERVER_ERROR`); nothing is delivered,
//   bounced or clicked as far as the service can tell;
// - `payments_overview` and `analytics_overview`: the emulator has no payments,
//   page views, clicks or session replays, so these are zeros and empty lists
//   as the service answers them for a project without them (with its analytics
//   database reachable: a point per day), but for who was online in the last
//   five minutes and the top region, which come from the token log.
import type { EmulatorContext } from "../engine/context.js";
import type { ActivityEventRecord } from "../engine/store.js";
import { dayOf, usersByDay, type metricsWindow } from "../engine/activity.js";

type Window = ReturnType<typeof metricsWindow>;

interface Activity {
  readonly now: number;
  readonly window: Window;
  /** The project's token log, anonymous users' tokens left out unless counted. */
  readonly log: readonly ActivityEventRecord[];
  readonly countsAnonymous: boolean;
}

const ONLINE_MS = 5 * 60 * 1000;
const RECENT_EMAILS = 100;
/** The service counts only ids shaped as UUIDs v4 as monthly active users. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const zeros = (days: readonly string[]) => days.map((date) => ({ date, activity: 0 }));

/** A percentage with two decimals, at most 100. */
const percent = (part: number, whole: number) => Number((Math.min(part / (whole > 0 ? whole : 1), 1) * 100).toFixed(2));

/** Each day's active users split by whether it is their first day, they were active the day before, or came back. */
function activitySplit(window: Window, log: readonly ActivityEventRecord[]) {
  const firstDay = new Map<string, string>();
  for (const event of log) {
    if (event.at_millis >= window.untilExclusive) continue;
    const day = dayOf(event.at_millis);
    const first = firstDay.get(event.user_id);
    if (first === undefined || day < first) firstDay.set(event.user_id, day);
  }
  const byDay = usersByDay(log.filter((event) => event.at_millis >= window.since && event.at_millis < window.untilExclusive));
  const lastSeen = new Map<string, string>();
  const split = { total: [] as Point[], new: [] as Point[], retained: [] as Point[], reactivated: [] as Point[] };
  window.days.forEach((date, index) => {
    const counts = { new: 0, retained: 0, reactivated: 0 };
    const active = byDay.get(date) ?? new Set<string>();
    for (const userId of active) {
      if (firstDay.get(userId) === date) counts.new++;
      else if (index > 0 && lastSeen.get(userId) === window.days[index - 1]) counts.retained++;
      else counts.reactivated++;
    }
    for (const userId of active) lastSeen.set(userId, date);
    split.total.push({ date, activity: active.size });
    split.new.push({ date, activity: counts.new });
    split.retained.push({ date, activity: counts.retained });
    split.reactivated.push({ date, activity: counts.reactivated });
  });
  return split;
}
type Point = { date: string; activity: number };

function authOverview(ctx: EmulatorContext, projectId: string, { window, log, countsAnonymous }: Activity) {
  const users = ctx.store.usersOf(projectId);
  const anonymous = users.filter((user) => user.is_anonymous).length;
  const verified = users.filter(
    (user) => !user.is_anonymous && ctx.store.channelsOf(user.id).some((channel) => channel.type === "email" && channel.is_verified),
  ).length;
  const nonAnonymous = users.length - anonymous;
  const inWindow = log.filter((event) => event.at_millis >= window.since && event.at_millis < window.untilExclusive);
  const split = activitySplit(window, log);
  return {
    verified_users: verified,
    unverified_users: nonAnonymous - verified,
    anonymous_users: anonymous,
    total_teams: ctx.store.teamsOf(projectId).length,
    mau: new Set(inWindow.map((event) => event.user_id.trim().toLowerCase()).filter((id) => UUID_V4.test(id))).size,
    daily_active_users_split: split,
    daily_active_teams_split: {
      total: zeros(window.days),
      new: zeros(window.days),
      retained: zeros(window.days),
      reactivated: zeros(window.days),
    },
    total_users_filtered: countsAnonymous ? users.length : nonAnonymous,
  };
}

function emailOverview(ctx: EmulatorContext, projectId: string, { window }: Activity) {
  const outbox = ctx.store
    .emailsOf(projectId)
    .filter((email) => !email.test)
    .map((email) => ({ email, ok: email.error === null }));
  const ok = outbox.filter((e) => e.ok).length;
  const error = outbox.length - ok;
  const recent = outbox.filter(({ email }) => email.sent_at_millis >= window.since);
  const byDay = (test: (e: (typeof outbox)[number]) => boolean) => (date: string) =>
    recent.filter((e) => dayOf(e.email.sent_at_millis) === date && test(e)).length;
  return {
    emails_by_status: { ...(ok > 0 && { ok }), ...(error > 0 && { error }) },
    total_emails: outbox.length,
    daily_emails: window.days.map((date) => ({ date, activity: byDay(() => true)(date) })),
    daily_emails_by_status: window.days.map((date) => ({
      date,
      ok: byDay((e) => e.ok)(date),
      error: byDay((e) => !e.ok)(date),
      in_progress: 0,
    })),
    // Every e-mail of the emulator's outbox has finished sending; none is known to be delivered, bounced or clicked.
    emails_sent: outbox.length,
    recent_emails: [...outbox]
      .reverse()
      .sort((a, b) => b.email.sent_at_millis - a.email.sent_at_millis)
      .slice(0, RECENT_EMAILS)
      .map(({ email, ok }) => ({
        id: email.id,
        status: ok ? "SENT" : "SERVER_ERROR",
        subject: email.subject || "(no subject)",
        created_at_millis: email.sent_at_millis,
      })),
    deliverability_status: { delivered: 0, bounced: 0, error, in_progress: 0 },
    deliverability_rate: percent(0, outbox.length),
    bounce_rate: percent(0, outbox.length),
    click_rate: percent(0, outbox.length),
  };
}

function paymentsOverview({ window }: Activity) {
  return {
    subscriptions_by_status: {},
    active_subscription_count: 0,
    total_one_time_purchases: 0,
    daily_subscriptions: zeros(window.days),
    revenue_cents: 0,
    mrr_cents: 0,
    total_orders: 0,
    checkout_conversion_rate: 0,
  };
}

/** The region (country and region code) with the most active users in the window, or null without activity. */
function topRegion({ window, log }: Activity) {
  const regions = new Map<string, { country_code: string | null; region_code: string | null; users: Set<string> }>();
  for (const event of log) {
    if (event.at_millis < window.since || event.at_millis >= window.untilExclusive) continue;
    const country_code = event.end_user?.country_code ?? null;
    const region_code = event.end_user?.region_code ?? null;
    const key = JSON.stringify([country_code, region_code]);
    if (!regions.has(key)) regions.set(key, { country_code, region_code, users: new Set() });
    regions.get(key)?.users.add(event.user_id);
  }
  const [top] = [...regions.values()].sort((a, b) => b.users.size - a.users.size);
  return top ? { country_code: top.country_code, region_code: top.region_code, count: top.users.size } : null;
}

function analyticsOverview(activity: Activity) {
  const { now, window, log } = activity;
  const online = new Set(log.filter((e) => e.at_millis >= now - ONLINE_MS && e.at_millis < window.untilExclusive).map((e) => e.user_id));
  return {
    daily_page_views: zeros(window.days),
    daily_clicks: zeros(window.days),
    daily_visitors: zeros(window.days),
    daily_revenue: window.days.map((date) => ({ date, new_cents: 0, refund_cents: 0 })),
    total_revenue_cents: 0,
    total_replays: 0,
    recent_replays: 0,
    visitors: 0,
    avg_session_seconds: 0,
    online_live: online.size,
    revenue_per_visitor: 0,
    top_referrers: [],
    top_region: topRegion(activity),
  };
}

/** 2.8.86's four overviews of the project. */
export function metricsOverviews(ctx: EmulatorContext, projectId: string, activity: Activity) {
  return {
    auth_overview: authOverview(ctx, projectId, activity),
    payments_overview: paymentsOverview(activity),
    email_overview: emailOverview(ctx, projectId, activity),
    analytics_overview: analyticsOverview(activity),
  };
}
