// Who is active, as the service logs it for its metrics: one event each time it
// issues an access token (a sign-in, a refresh; its generateAccessToken at
// 2.8.11, generateAccessTokenFromRefreshTokenIfValid at 2.8.86, which also sets
// the user's last activity), with where the request came from as far as its
// headers tell (its getEndUserInfo, apps/backend/src/lib/end-users.tsx). It
// reads those headers only from a request whose user agent claims to be a
// browser and names a valid IP address; which headers, in which order, is the
// profile's (`endUserHeaders`).
import type { ServiceProfile } from "./profile.js";
import type { ActivityEventRecord, EndUserRecord, SessionRecord, Store } from "./store.js";
import { randomId } from "./tokens.js";

/** Whether a text is an IPv4 or IPv6 address (as the service's ip-regex check decides it). */
export function isIpAddress(text: string): boolean {
  const octet = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
  if (new RegExp(`^${octet}(\\.${octet}){3}$`).test(text)) return true;
  // An IPv6 address is what a URL takes between brackets (the WHATWG parser checks it fully).
  return /^[0-9a-fA-F:.]+$/.test(text) && text.includes(":") && URL.canParse(`http://[${text}]/`);
}

/** The first header of `names` the request has (an empty one counts), or undefined. */
function firstHeader(headers: Headers, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) return name === "x-forwarded-for" ? value.split(",")[0] : value;
  }
  return undefined;
}

/** Where a request came from, as the service guesses it; null when it cannot tell (not a browser, no valid IP). */
export function endUserOf(profile: ServiceProfile, headers: Headers): EndUserRecord | null {
  const agent = headers.get("user-agent") ?? "";
  if (!["Mozilla", "Chrome", "Safari"].some((browser) => agent.includes(browser))) return null;
  const trustAll = profile.endUserHeaders === "trust-all";
  const ip = firstHeader(
    headers,
    trustAll
      ? ["cf-connecting-ip", "x-vercel-forwarded-for", "x-real-ip", "x-forwarded-for"]
      : ["x-real-ip", "x-forwarded-for", "x-vercel-forwarded-for", "cf-connecting-ip"],
  );
  if (ip === undefined || !isIpAddress(ip)) return null;
  const country = firstHeader(headers, trustAll ? ["cf-ipcountry", "x-vercel-ip-country"] : ["x-vercel-ip-country", "cf-ipcountry"]);
  const text = (name: string) => headers.get(name) || undefined;
  const coordinate = (name: string) => {
    const value = parseFloat(headers.get(name) ?? "");
    return Number.isFinite(value) ? value : undefined;
  };
  const location = {
    country_code: country ? (trustAll ? country : country.trim().toUpperCase()) : undefined,
    region_code: text("x-vercel-ip-country-region"),
    city_name: text("x-vercel-ip-city"),
    latitude: coordinate("x-vercel-ip-latitude"),
    longitude: coordinate("x-vercel-ip-longitude"),
    tz_identifier: text("x-vercel-ip-timezone"),
  };
  return { ip, ...Object.fromEntries(Object.entries(location).filter(([, value]) => value !== undefined)) };
}

/**
 * Logs an access token issued for `session` from `endUser`, and makes it the user's last activity (both versions
 * read a user's last activity from these: 2.8.11 as its latest event, 2.8.86 as the time it stores then).
 */
export function recordTokenIssue(store: Store, at: number, session: SessionRecord, endUser: EndUserRecord | null): void {
  const user = store.user(session.user_id);
  if (!user) return;
  store.insert("activityEvents", {
    id: randomId(),
    project_id: session.project_id,
    user_id: user.id,
    session_id: session.id,
    at_millis: at,
    is_anonymous: user.is_anonymous,
    end_user: endUser,
  });
  store.updateUser(user.id, { last_active_at_millis: at });
}

// --- days of activity, as the metrics count them ------------------------------

export const DAY_MS = 24 * 3600 * 1000;
/** The days before today that the metrics look back over. */
export const METRICS_DAYS = 30;
/** `YYYY-MM-DD` (UTC) of a time. */
export const dayOf = (millis: number) => new Date(millis).toISOString().slice(0, 10);

/** The metrics' window: its 31 days, oldest first, and where it starts and ends (today's end, exclusive). */
export function metricsWindow(now: number) {
  const today = Date.parse(`${dayOf(now)}T00:00:00.000Z`);
  const since = today - METRICS_DAYS * DAY_MS;
  const days = Array.from({ length: METRICS_DAYS + 1 }, (_, i) => dayOf(since + i * DAY_MS));
  return { days, since, untilExclusive: today + DAY_MS };
}

/** One point a day: `activity` counts the distinct keys of that day. */
export function points(days: readonly string[], keysByDay: ReadonlyMap<string, ReadonlySet<string>>) {
  return days.map((date) => ({ date, activity: keysByDay.get(date)?.size ?? 0 }));
}

/** The distinct users of each day of `events`. */
export function usersByDay(events: readonly ActivityEventRecord[]): Map<string, Set<string>> {
  const byDay = new Map<string, Set<string>>();
  for (const event of events) {
    const day = dayOf(event.at_millis);
    if (!byDay.has(day)) byDay.set(day, new Set());
    byDay.get(day)?.add(event.user_id);
  }
  return byDay;
}
