// The dashboard's metrics (GET /internal/metrics) count activity as the service
// logs it: an event each time it issues an access token, with where the request
// came from as far as a browser's headers tell (apps/backend/src/lib/tokens.tsx,
// events.tsx, end-users.tsx; internal/metrics/route.tsx at each version, and its
// own tests in apps/e2e/tests/backend/endpoints/api/v1/internal-metrics.test.ts).
import { describe, expect, it } from "vitest";
import { APP_URL, PASSWORD, SERVICE_VERSIONS, serviceOf, type Service } from "./harness.js";

/** What the suite's helpers send to pass as a browser in a country (the service reads location only from browsers). */
const from = (country: string, extra: Record<string, string> = {}) => ({
  "user-agent": "Mozilla/5.0",
  "x-forwarded-for": "127.0.0.1",
  "cf-connecting-ip": "127.0.0.1",
  "x-vercel-ip-country": country,
  "cf-ipcountry": country,
  "x-vercel-ip-country-region": "ZH",
  ...extra,
});

async function signUp(service: Service, email: string, headers: Record<string, string> = {}) {
  const answer = await service.call("POST", "/auth/password/sign-up", {
    headers,
    body: { email, password: PASSWORD, verification_callback_url: `${APP_URL}/handler/email-verification` },
  });
  expect(answer.status).toBe(200);
  return answer.body as { user_id: string; access_token: string; refresh_token: string };
}

const signIn = (service: Service, email: string, headers: Record<string, string> = {}) =>
  service.call("POST", "/auth/password/sign-in", { headers, body: { email, password: PASSWORD } });

const metrics = async (service: Service) => (await service.call("GET", "/internal/metrics", { as: "admin" })).body;

describe.each(SERVICE_VERSIONS)("metrics on %s", (version) => {
  it("count a day's active users from the access tokens issued, a deleted user's too", async () => {
    const service = await serviceOf(version);
    const ada = await signUp(service, "ada@example.com");
    await signUp(service, "bob@example.com");
    await service.call("POST", "/users", { as: "server", body: { primary_email: "carol@example.com" } });
    expect((await service.call("DELETE", `/users/${ada.user_id}`, { as: "server" })).status).toBe(200);
    const body = await metrics(service);
    expect(body.total_users).toBe(2);
    // Ada and Bob were issued tokens (Ada before she was deleted); Carol, made by the server, was not.
    expect(body.daily_active_users.at(-1).activity).toBe(2);
    expect(body.daily_users.at(-1).activity).toBe(2);
  });

  it("count users by the country of their latest browser request that named one", async () => {
    const service = await serviceOf(version);
    await signUp(service, "ada@example.com", from("CH"));
    await signIn(service, "ada@example.com", from("AQ"));
    await signIn(service, "ada@example.com");
    await signUp(service, "bob@example.com", from("CH"));
    // Not a browser, or no valid IP address: the service does not know where it came from.
    await signUp(service, "carol@example.com", { "cf-ipcountry": "US", "x-vercel-ip-country": "US", "cf-connecting-ip": "127.0.0.1" });
    await signUp(service, "dave@example.com", from("US", { "x-forwarded-for": "not-an-ip", "cf-connecting-ip": "not-an-ip" }));
    expect((await metrics(service)).users_by_country).toEqual({ AQ: 1, CH: 1 });
  });

  it("read the country from the headers each version trusts first", async () => {
    const service = await serviceOf(version);
    const headers = { "user-agent": "Mozilla/5.0", "x-real-ip": "10.0.0.1", "cf-ipcountry": "ch", "x-vercel-ip-country": " de " };
    await signUp(service, "ada@example.com", headers);
    // 2.8.11 trusts Cloudflare's header first and keeps it as sent; 2.8.86 (no trusted proxy) Vercel's, trimmed and upper-cased.
    expect((await metrics(service)).users_by_country).toEqual(version === "2.8.11" ? { ch: 1 } : { DE: 1 });
  });
});

describe("recently active users", () => {
  it("on 2.8.11 are the latest five of the token log, less those deleted since", async () => {
    const service = await serviceOf("2.8.11");
    const ids: string[] = [];
    for (const name of ["a", "b", "c", "d", "e", "f"]) ids.push((await signUp(service, `${name}@example.com`)).user_id);
    await signIn(service, "a@example.com");
    expect((await service.call("DELETE", `/users/${ids[5]}`, { as: "server" })).status).toBe(200);
    const active = (await metrics(service)).recently_active.map((user: { id: string }) => user.id);
    // a (again), f (deleted), e, d, c: four are left.
    expect(active).toEqual([ids[0], ids[4], ids[3], ids[2]]);
  });

  it("on 2.8.86 are the five users last issued a token, anonymous ones only when asked", async () => {
    const service = await serviceOf("2.8.86");
    const ids: string[] = [];
    for (const name of ["a", "b", "c", "d", "e", "f"]) ids.push((await signUp(service, `${name}@example.com`)).user_id);
    await signIn(service, "a@example.com");
    expect((await service.call("DELETE", `/users/${ids[5]}`, { as: "server" })).status).toBe(200);
    await service.call("POST", "/auth/anonymous/sign-up", { body: {} });
    const active = (await metrics(service)).recently_active.map((user: { id: string }) => user.id);
    expect(active).toEqual([ids[0], ids[4], ids[3], ids[2], ids[1]]);
    const all = (await service.call("GET", "/internal/metrics?include_anonymous=true", { as: "admin" })).body;
    expect(all.recently_active[0].is_anonymous).toBe(true);
  });
});

describe("2.8.86's overviews", () => {
  it("count users by kind, teams, monthly and new active users, the outbox, and who is online where", async () => {
    const service = await serviceOf("2.8.86");
    await signUp(service, "ada@example.com", from("CH"));
    await signUp(service, "bob@example.com", from("CH"));
    await service.call("POST", "/users", { as: "server", body: { primary_email: "carol@example.com", primary_email_verified: true } });
    await service.call("POST", "/auth/anonymous/sign-up", { body: {} });
    await service.call("POST", "/teams", { as: "server", body: { display_name: "Analysts" } });
    const body = await metrics(service);
    expect(body.auth_overview).toMatchObject({
      verified_users: 1,
      unverified_users: 2,
      anonymous_users: 1,
      total_teams: 1,
      mau: 2,
      total_users_filtered: 3,
    });
    expect(body.auth_overview.daily_active_users_split.new.at(-1).activity).toBe(2);
    expect(body.auth_overview.daily_active_users_split.total).toHaveLength(31);
    // The two verification e-mails of the sign-ups, sent.
    expect(body.email_overview).toMatchObject({ emails_by_status: { ok: 2 }, total_emails: 2, emails_sent: 2, deliverability_rate: 0 });
    expect(body.email_overview.recent_emails.map((e: { status: string }) => e.status)).toEqual(["SENT", "SENT"]);
    expect(body.email_overview.daily_emails.at(-1).activity).toBe(2);
    expect(body.payments_overview).toMatchObject({ subscriptions_by_status: {}, revenue_cents: 0, total_orders: 0 });
    expect(body.payments_overview.daily_subscriptions).toHaveLength(31);
    expect(body.analytics_overview).toMatchObject({
      visitors: 0,
      top_referrers: [],
      online_live: 2,
      top_region: { country_code: "CH", region_code: "ZH", count: 2 },
    });
    expect(body.analytics_overview.daily_page_views).toHaveLength(31);
  });

  it("are not in 2.8.11's metrics", async () => {
    const body = await metrics(await serviceOf("2.8.11"));
    expect(Object.keys(body).sort()).toEqual([
      "daily_active_users",
      "daily_users",
      "login_methods",
      "recently_active",
      "recently_registered",
      "total_users",
      "users_by_country",
    ]);
  });
});
