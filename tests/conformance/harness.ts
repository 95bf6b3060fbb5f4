// The conformance suite's harness: the service as a raw HTTP client meets it.
// Each case of tests/conformance/ is one behaviour of the real service, named
// after it, with its facts from the service's public source and its own tests at
// the version(s) it belongs to, and runs against the emulator of each such
// version. Every exchange is checked against the document in that version's
// view, except what a case says it expects to break it (a route the document
// does not have, on purpose: `/api/latest`, a 405).
import { afterEach, expect } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS, SERVICE_VERSIONS, type EmulatorOptions, type ServiceVersion } from "../../emulator/index.js";
import { checkedEmulator, type CheckedEmulator } from "../helpers/emulator.js";
import { rawCall, type CallOptions, type Keys, type RawAnswer as Answer } from "../helpers/raw-call.js";

export { DEMO_KEYS, INTERNAL_KEYS, SERVICE_VERSIONS, type ServiceVersion };

export type { CallOptions, Keys, RawAnswer as Answer } from "../helpers/raw-call.js";

export interface Service {
  readonly version: ServiceVersion;
  readonly emulator: CheckedEmulator;
  /** One request, as `{ status, headers, body }`. */
  call(method: string, route: string, options?: CallOptions): Promise<Answer>;
  /**
   * Violations of the document this case expects (a route the document leaves out on purpose): taken out of those
   * the after-each check sees.
   */
  expectViolations(pattern: RegExp): void;
}

let current: CheckedEmulator | undefined;
afterEach(() => {
  expect(current?.violations ?? [], "exchanges that break the document").toEqual([]);
  current = undefined;
});

/** A fresh emulator of `version` for one case; `options` as the emulator takes them (an access token lifetime, a start time). */
export async function serviceOf(version: ServiceVersion, options: Omit<EmulatorOptions, "serviceVersion"> = {}): Promise<Service> {
  const emulator = await checkedEmulator({ ...options, serviceVersion: version });
  current = emulator;
  return {
    version,
    emulator,
    call: (method, route, options) => rawCall(emulator, method, route, options),
    expectViolations(pattern) {
      const kept = emulator.violations.filter((violation) => !pattern.test(violation));
      expect(emulator.violations.length - kept.length, `violations matching ${pattern}`).toBeGreaterThan(0);
      emulator.violations.splice(0, emulator.violations.length, ...kept);
    },
  };
}

/** The two team permissions every project the service makes starts with (both versions: apps/backend/src/lib/projects.tsx). */
export const DEFAULT_TEAM_PERMISSIONS = [
  {
    id: "team_admin",
    description: "Default permission for team admins",
    contained_permission_ids: ["$delete_team", "$invite_members", "$manage_api_keys", "$read_members", "$remove_members", "$update_team"],
  },
  { id: "team_member", description: "Default permission for team members", contained_permission_ids: ["$invite_members", "$read_members"] },
] as const;

export const PASSWORD = "correct horse battery staple";
export const APP_URL = "http://localhost:3000";

/** A new user of `keys`' project signed up with a password: their id and tokens. */
export async function signUp(
  service: Service,
  email: string,
  keys: Keys = DEMO_KEYS,
): Promise<{ readonly userId: string; readonly accessToken: string; readonly refreshToken: string }> {
  const answer = await service.call("POST", "/auth/password/sign-up", {
    keys,
    body: { email, password: PASSWORD, verification_callback_url: `${APP_URL}/handler/email-verification` },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { userId: answer.body.user_id, accessToken: answer.body.access_token, refreshToken: answer.body.refresh_token };
}

/**
 * A user of the internal project who owns a new project, as the service's own tests make one: the owner's access
 * token (their admin access token for the project) and the project's id.
 */
export async function ownedProject(
  service: Service,
  email = "owner@example.com",
): Promise<{ readonly adminToken: string; readonly projectId: string; readonly ownerId: string }> {
  const owner = await signUp(service, email, INTERNAL_KEYS);
  let ownerTeamId: string | undefined;
  if (service.version !== "2.8.11") {
    const teams = await service.call("GET", "/teams?user_id=me", { keys: INTERNAL_KEYS, token: owner.accessToken });
    ownerTeamId = teams.body.items[0]?.id;
    if (ownerTeamId === undefined) {
      const team = await service.call("POST", "/teams", {
        keys: INTERNAL_KEYS,
        token: owner.accessToken,
        body: { display_name: "Owners", creator_user_id: "me" },
      });
      ownerTeamId = team.body.id;
    }
  }
  const created = await service.call("POST", "/internal/projects", {
    keys: INTERNAL_KEYS,
    token: owner.accessToken,
    body: { display_name: "Owned", ...(ownerTeamId === undefined ? {} : { owner_team_id: ownerTeamId }) },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { adminToken: owner.accessToken, projectId: created.body.id, ownerId: owner.userId };
}
