// Each service version's view of the document (document-view.ts), shown on the
// emulator's own exchanges: an emulator of one version is checked against both
// views, and what only the other version has is a violation of its view.
import { describe, expect, it } from "vitest";
import { createEmulator, DEMO_KEYS, type ServiceVersion } from "../../emulator/index.js";
import { documentFor, fullDocument } from "./document-view.js";
import { documentChecker, signedInUser } from "./emulator.js";

const ADMIN_HEADERS = {
  "x-stack-project-id": DEMO_KEYS.projectId,
  "x-stack-access-type": "admin",
  "x-stack-publishable-client-key": DEMO_KEYS.publishableClientKey,
  "x-stack-secret-server-key": DEMO_KEYS.secretServerKey,
  "x-stack-super-secret-admin-key": DEMO_KEYS.superSecretAdminKey,
};

/** An emulator of `version` whose exchanges are checked against both views. */
async function checkedByBoth(version: ServiceVersion) {
  const as11 = documentChecker("2.8.11");
  const as86 = documentChecker("2.8.86");
  const emulator = await createEmulator({
    serviceVersion: version,
    onExchange: async ({ request, response }) => {
      await as11.onExchange({ request: request.clone(), response: response.clone() });
      await as86.onExchange({ request, response });
    },
  });
  return { emulator, violations: { "2.8.11": as11.violations, "2.8.86": as86.violations } };
}

describe("documentFor", () => {
  it("builds each view from the document's markers, leaving the document as it is", () => {
    const full = fullDocument() as any;
    const as11 = documentFor("2.8.11") as any;
    const as86 = documentFor("2.8.86") as any;
    const user = (doc: any) => doc.components.schemas.ServerUser.properties;
    expect(user(full).is_restricted).toMatchObject({ "x-added-in": "2.8.86" });
    expect(user(as11).is_restricted).toBe(false);
    expect(user(as86).is_restricted).toMatchObject({ type: "boolean" });
    const project = (doc: any) => doc.components.schemas.AdminProject.properties;
    expect(project(as11).user_count).toMatchObject({ type: "integer" });
    expect(project(as86).user_count).toBe(false);
    expect(project(as11).owner_team_id).toBe(false);
    // An operation the version does not have keeps only the catch-all's plain-text 404.
    expect(Object.keys(as86.paths["/email-templates"].get.responses)).toEqual(["404"]);
    expect(Object.keys(as11.paths["/internal/email-templates"].get.responses)).toEqual(["404"]);
    expect(Object.keys(as11.paths["/email-templates"].get.responses)).toContain("200");
    expect(Object.keys(full.paths["/email-templates"].get.responses)).toContain("200");
    const query = (doc: any) => doc.paths["/users"].get.parameters.map((p: any) => p.name ?? p.$ref);
    expect(query(as86)).toContain("include_anonymous");
    expect(query(as11)).not.toContain("include_anonymous");
    expect(query(full)).toContain("include_restricted");
  });

  it("leaves the known errors 2.8.86 added out of 2.8.11's view, and applies each version's overlays", () => {
    const full = fullDocument() as any;
    const as11 = documentFor("2.8.11") as any;
    const as86 = documentFor("2.8.86") as any;
    const codes = (doc: any) => doc.components.schemas.KnownError.oneOf.map((branch: any) => branch.$ref.split("/").pop());
    // The document has the hosted service's newer codes too (2.8.102's TEAM_INVITATION_EMAIL_MISMATCH); 2.8.86 has 144.
    expect(codes(full)).toHaveLength(145);
    expect(codes(full)).toContain("TEAM_INVITATION_EMAIL_MISMATCH");
    expect(codes(as86)).toHaveLength(144);
    expect(codes(as86)).not.toContain("TEAM_INVITATION_EMAIL_MISMATCH");
    expect(codes(as11)).toHaveLength(106);
    expect(codes(as11)).toContain("BRANCH_DOES_NOT_EXIST");
    expect(codes(as11)).not.toContain("SIGN_UP_REJECTED");
    // A status whose every code is 2.8.86's has no known error at all in 2.8.11's view.
    const signUp = (doc: any) => doc.paths["/auth/password/sign-up"].post;
    const refusals = (doc: any) => {
      const ref = signUp(doc).responses["403"].$ref.split("/").pop();
      return doc.components.responses[ref].content["application/json"].schema;
    };
    expect(refusals(as86).oneOf.map((branch: any) => branch.$ref)).toContain("#/components/schemas/SIGN_UP_REJECTED");
    expect(JSON.stringify(refusals(as11))).not.toContain("SIGN_UP_REJECTED");
    // 2.8.11 requires the verification URL on password sign-up; 2.8.86 and the document do not.
    const required = (doc: any) => signUp(doc).requestBody.content["application/json"].schema.required;
    expect(required(full)).toEqual(["email", "password"]);
    expect(required(as86)).toEqual(["email", "password"]);
    expect(required(as11)).toEqual(["email", "password", "verification_callback_url"]);
    // A response only 2.8.86 gives (the authorize call's JSON mode) is gone from 2.8.11's view, with its parameter.
    const authorize = (doc: any) => doc.paths["/auth/oauth/authorize/{provider}"].get;
    expect(Object.keys(authorize(as86).responses)).toContain("200");
    expect(Object.keys(authorize(as11).responses)).not.toContain("200");
    expect(authorize(as11).parameters.map((p: any) => p.name)).not.toContain("stack_response_mode");
    // 2.8.86 answers a sent e-mail's error as a string or null; 2.8.11 as any JSON it recorded.
    const error = (doc: any) => doc.components.schemas.SentEmail.properties.error.type;
    expect(error(as86)).toEqual(["string", "null"]);
    expect(error(as11)).toEqual(["object", "array", "string", "number", "boolean", "null"]);
    expect(error(full)).toEqual(error(as11));
  });

  it("refuses in 2.8.11's view an accepted request with a query parameter 2.8.86 added", async () => {
    const { emulator, violations } = await checkedByBoth("2.8.86");
    const headers = { ...ADMIN_HEADERS, "x-stack-access-type": "server" };
    const answer = await emulator.fetch(new Request(`${emulator.apiOrigin}/api/v1/users?include_anonymous=true`, { headers }));
    expect(answer.status).toBe(200);
    expect(violations["2.8.86"]).toEqual([]);
    expect(violations["2.8.11"].join("\n")).toMatch(/GET \/api\/v1\/users 200: .*include_anonymous is not documented/);
  });
});

describe("an exchange checked in a version's view", () => {
  it("is a violation of 2.8.86's view when it answers an operation 2.8.86 removed", async () => {
    const { emulator, violations } = await checkedByBoth("2.8.11");
    const answer = await emulator.fetch(new Request(`${emulator.apiOrigin}/api/v1/email-templates`, { headers: ADMIN_HEADERS }));
    expect(answer.status).toBe(200);
    expect(violations["2.8.11"]).toEqual([]);
    expect(violations["2.8.86"]).toEqual([
      expect.stringMatching(/^GET \/api\/v1\/email-templates 200: .*status 200 is not documented for listEmailTemplates/),
    ]);
  });

  it("is a violation of 2.8.11's view when it answers an operation 2.8.86 added, and not its catch-all's 404", async () => {
    const on86 = await checkedByBoth("2.8.86");
    expect(
      (await on86.emulator.fetch(new Request(`${on86.emulator.apiOrigin}/api/v1/internal/email-templates`, { headers: ADMIN_HEADERS })))
        .status,
    ).toBe(200);
    expect(on86.violations["2.8.86"]).toEqual([]);
    expect(on86.violations["2.8.11"]).toHaveLength(1);
    const on11 = await checkedByBoth("2.8.11");
    expect(
      (await on11.emulator.fetch(new Request(`${on11.emulator.apiOrigin}/api/v1/internal/email-templates`, { headers: ADMIN_HEADERS })))
        .status,
    ).toBe(404);
    expect(on11.violations["2.8.11"]).toEqual([]);
  });

  it("is a violation of 2.8.11's view when a user carries 2.8.86's fields (is_restricted, ...), and not of 2.8.86's", async () => {
    const { emulator, violations } = await checkedByBoth("2.8.86");
    await signedInUser(emulator, "view@example.com");
    expect(violations["2.8.86"]).toEqual([]);
    expect(violations["2.8.11"].join("\n")).toMatch(/GET \/api\/v1\/users\/me 200: \/response\/body\/is_restricted/);
  });

  it("is a violation of 2.8.11's view when it answers a known error 2.8.86 added", async () => {
    const { emulator, violations } = await checkedByBoth("2.8.86");
    const answer = await emulator.fetch(
      new Request(`${emulator.apiOrigin}/api/v1/users/me`, {
        headers: { ...ADMIN_HEADERS, "x-stack-access-type": "client", "x-stack-branch-id": "no-such-branch" },
      }),
    );
    expect(answer.status).toBe(400);
    expect(violations["2.8.86"]).toEqual([]);
    expect(violations["2.8.11"]).toEqual([]);
    emulator.control.setPublishableClientKeyRequired(DEMO_KEYS.projectId, true);
    const refused = await emulator.fetch(
      new Request(`${emulator.apiOrigin}/api/v1/users/me`, {
        headers: { "x-stack-project-id": DEMO_KEYS.projectId, "x-stack-access-type": "client" },
      }),
    );
    expect(await refused.json()).toMatchObject({ code: "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT" });
    expect(violations["2.8.86"]).toEqual([]);
    expect(violations["2.8.11"].join("\n")).toMatch(/GET \/api\/v1\/users\/me 401: .*PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT/);
  });

  it("is a violation of 2.8.11's view when a password sign-up sends no verification URL", async () => {
    const { emulator, violations } = await checkedByBoth("2.8.86");
    const answer = await emulator.fetch(
      new Request(`${emulator.apiOrigin}/api/v1/auth/password/sign-up`, {
        method: "POST",
        headers: { ...ADMIN_HEADERS, "x-stack-access-type": "client", "content-type": "application/json" },
        body: JSON.stringify({ email: "no-url@example.com", password: "correct horse battery" }),
      }),
    );
    expect(answer.status).toBe(200);
    expect(violations["2.8.86"]).toEqual([]);
    expect(violations["2.8.11"].join("\n")).toMatch(
      /POST \/api\/v1\/auth\/password\/sign-up 200: \/request\/body.*verification_callback_url/,
    );
  });

  it("finds nothing in an emulator's answers checked against its own version's view", async () => {
    const { emulator, violations } = await checkedByBoth("2.8.11");
    await signedInUser(emulator, "view@example.com");
    expect(violations["2.8.11"]).toEqual([]);
  });
});
