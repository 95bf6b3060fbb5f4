// The CurrentUser object as getUser() hands it out (issue 13 §5): one object
// with the answer's fields per call, the methods shared by every user of the
// app's context. What it must keep: every field and method, methods that work
// detached, a frozen snapshot, and JSON of the fields alone.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { components } from "../../../generated/schema.js";
import { Result } from "../../../runtime/app/result.js";
import { createCurrentUser, type CurrentUserExtras } from "../../../runtime/app/objects/user.js";
import { testAppContext } from "../../helpers/app-context.js";
import { answerAsDocumented } from "../../helpers/documented-answers.js";
import { useFakeClock } from "../../helpers/fake-service.js";
import { doc } from "../../fixtures/document.js";

type WireUser = components["schemas"]["ClientUser"];
const EXAMPLE = doc.components.examples.ClientUser!.value as WireUser;

const FIELDS = [
  "id",
  "displayName",
  "primaryEmail",
  "primaryEmailVerified",
  "profileImageUrl",
  "signedUpAt",
  "clientMetadata",
  "clientReadOnlyMetadata",
  "hasPassword",
  "emailAuthEnabled",
  "otpAuthEnabled",
  "oauthProviders",
  "passkeyAuthEnabled",
  "isMultiFactorRequired",
  "isAnonymous",
  "isRestricted",
  "restrictedReason",
];

const METHODS = [
  "createApiKey",
  "createContactChannel",
  "createTeam",
  "delete",
  "getAccessToken",
  "getActiveSessions",
  "getAuthHeaders",
  "getAuthJson",
  "getConnectedAccount",
  "getPermission",
  "getRefreshToken",
  "getTeam",
  "getTeamProfile",
  "hasPermission",
  "leaveTeam",
  "listApiKeys",
  "listContactChannels",
  "listPermissions",
  "listTeamInvitations",
  "listTeams",
  "registerPasskey",
  "revokeSession",
  "sendVerificationEmail",
  "setClientMetadata",
  "setDisplayName",
  "setPassword",
  "setSelectedTeam",
  "signOut",
  "update",
  "updatePassword",
];

/** Function-valued members, own and inherited (as tests/unit/app/abort.test.ts enumerates them). */
function methodsOf(value: object): string[] {
  const names = new Set(Object.entries(value).flatMap(([name, member]) => (typeof member === "function" ? [name] : [])));
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
      if (name !== "constructor" && typeof descriptor.value === "function") names.add(name);
    }
  }
  return [...names].sort();
}

function extrasForTest(): CurrentUserExtras {
  return {
    signOut: vi.fn(async () => {}),
    registerPasskey: vi.fn(async () => Result.ok(undefined)),
    ownedProjects: {
      createProject: async () => expect.unreachable("no project is created here"),
      listOwnedProjects: async () => expect.unreachable("no owned project is listed here"),
    },
  };
}

function setup(projectId?: string) {
  const t = testAppContext(answerAsDocumented);
  const ctx = projectId ? { ...t.ctx, projectId } : t.ctx;
  const user = (wire: Partial<WireUser> = {}, extras = extrasForTest()) => createCurrentUser(ctx, { ...EXAMPLE, ...wire }, extras);
  return { ...t, ctx, user };
}

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe("a CurrentUser", () => {
  it("has every method of the reference's CurrentUser, and the internal project's user two more", () => {
    expect(methodsOf(setup().user())).toEqual(METHODS);
    expect(methodsOf(setup("internal").user())).toEqual([...METHODS, "createProject", "listOwnedProjects"].sort());
    expect("createProject" in setup().user()).toBe(false);
  });

  it("holds the answer's fields, currentSession and selectedTeam as its own enumerable properties", () => {
    const user = setup().user();
    const own = Object.keys(user);
    expect(own.slice(0, FIELDS.length)).toEqual(FIELDS);
    expect(own).toEqual(expect.arrayContaining(["currentSession", "selectedTeam"]));
    expect({ ...user }).toMatchObject({ id: EXAMPLE.id, displayName: EXAMPLE.display_name, primaryEmail: EXAMPLE.primary_email });
  });

  it("is JSON of its fields, its selected team and its (empty) current session", () => {
    const user = setup().user();
    expect(Object.keys(JSON.parse(JSON.stringify(user)))).toEqual([...FIELDS, "currentSession", "selectedTeam"]);
  });

  it("is frozen, and so is what it shares with the context's other users", () => {
    const user = setup().user();
    expect(Object.isFrozen(user)).toBe(true);
    expect(Object.isFrozen(Object.getPrototypeOf(user))).toBe(true);
    expect(Object.isFrozen(user.currentSession)).toBe(true);
    expect(() => {
      (user as { listTeams: unknown }).listTeams = () => [];
    }).toThrow(TypeError);
  });

  it("shares its context's methods with the context's other users, each with its own fields", () => {
    const { user } = setup();
    const ada = user();
    const grace = user({ id: "0f0e0d0c-0000-4000-8000-000000000009", primary_email: "grace@example.com", display_name: "Grace" });
    expect(ada.listTeams).toBe(grace.listTeams);
    expect(ada.currentSession).toBe(grace.currentSession);
    expect([ada.displayName, grace.displayName]).toEqual(["Ada Lovelace", "Grace"]);
    expect(ada.signOut).not.toBe(grace.signOut);
  });

  it("has methods that work detached, each on the user it came from", async () => {
    const { user, service } = setup();
    const extras = extrasForTest();
    const grace = user({ primary_email: "grace@example.com" }, extras);
    const { listTeams, getAuthJson, sendVerificationEmail, signOut, setDisplayName } = grace;
    await listTeams();
    await setDisplayName("Grace H.");
    await sendVerificationEmail();
    expect((await getAuthJson()).refreshToken).toBe("rt-user");
    await signOut({ redirectUrl: "/bye" });
    expect(extras.signOut).toHaveBeenCalledWith({ redirectUrl: "/bye" });
    expect(service.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /api/v1/teams?user_id=me",
      "PATCH /api/v1/users/me",
      // The update asked for a new access token (its name claim changed): token-claims.test.ts.
      "POST /api/v1/auth/oauth/token",
      "POST /api/v1/contact-channels/send-verification-code",
    ]);
    expect(JSON.parse(service.requests[3]!.body)).toMatchObject({ email: "grace@example.com" });
  });
});
