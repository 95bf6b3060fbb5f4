// What the hosted service took since 2.8.102 and neither version the emulator plays has
// (the document marks it `x-added-in: "2.8.102"`): ordering users by last activity, paging,
// searching and sorting teams, and the admin project's development-environment flag and
// setup choices. Both versions refuse each as their schemas do (service source at 2.8.86 and
// 2.8.11: users/crud.tsx `order_by: yupString().oneOf(['signed_up_at'])`; teams/crud.tsx's
// query schema of `user_id` and `add_current_user` only, unknown names refused by
// smart-request.tsx; interface/crud/projects.ts without either body field), answer no
// `pagination` for teams, and the plain forms still work.
import { describe, expect, it } from "vitest";
import { DEMO_KEYS, INTERNAL_KEYS, serviceOf, SERVICE_VERSIONS, type Service } from "./harness.js";

function schemaError(method: string, path: string, ...problems: string[]) {
  const message = `Request validation failed on ${method} /api/v1${path}:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
  return { code: "SCHEMA_ERROR", details: { message }, error: message };
}

const ONBOARDING_STATE = {
  selected_config_choice: "create-new",
  selected_apps: ["authentication"],
  selected_sign_in_methods: ["credential"],
  selected_email_theme_id: null,
  selected_payments_country: "US",
};

/** A team of the demo project, made with the server key. */
async function team(service: Service, name: string): Promise<string> {
  const created = await service.call("POST", "/teams", { as: "server", body: { display_name: name } });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe.each(SERVICE_VERSIONS)("what 2.8.102 added, on %s", (version) => {
  it("GET /users orders by signed_up_at only: order_by=last_active_at fails the field's oneOf", async () => {
    const service = await serviceOf(version);
    const refused = await service.call("GET", "/users?order_by=last_active_at", { as: "server" });
    expect([refused.status, refused.body]).toEqual([
      400,
      schemaError("GET", "/users", "query.order_by must be one of the following values: signed_up_at"),
    ]);
    expect((await service.call("GET", "/users?order_by=signed_up_at&desc=true", { as: "server" })).status).toBe(200);
  });

  it("GET /teams refuses limit, cursor, query, order_by and desc as unknown query properties, in the order sent", async () => {
    const service = await serviceOf(version);
    const id = await team(service, "Acme");
    const refused = await service.call("GET", `/teams?limit=1&cursor=${id}&query=acme&order_by=created_at&desc=true`, { as: "server" });
    expect([refused.status, refused.body]).toEqual([
      400,
      schemaError("GET", "/teams", "query contains unknown properties: limit, cursor, query, order_by, desc"),
    ]);
    const ada = await service.emulator.control.createUser({ projectId: DEMO_KEYS.projectId, email: "ada@example.com" });
    const user = await service.call("GET", `/teams?user_id=${ada.id}&limit=1`, { as: "server" });
    expect([user.status, user.body]).toEqual([400, schemaError("GET", "/teams", "query contains unknown properties: limit")]);
  });

  it("GET /teams answers every team at once, oldest first, without pagination", async () => {
    const service = await serviceOf(version);
    const first = await team(service, "Acme");
    const second = await team(service, "Beta");
    const answer = await service.call("GET", "/teams", { as: "server" });
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((t: { id: string }) => t.id)).toEqual([first, second]);
    expect(answer.body.is_paginated).toBe(false);
    expect(answer.body).not.toHaveProperty("pagination");
  });

  it("the admin project has neither field, and an update with onboarding_state is refused", async () => {
    const service = await serviceOf(version);
    const project = await service.call("GET", "/internal/projects/current", { as: "admin" });
    expect(project.status).toBe(200);
    expect(project.body).not.toHaveProperty("is_development_environment");
    expect(project.body).not.toHaveProperty("onboarding_state");
    const refused = await service.call("PATCH", "/internal/projects/current", {
      as: "admin",
      body: { onboarding_state: ONBOARDING_STATE },
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      schemaError("PATCH", "/internal/projects/current", "body contains unknown properties: onboarding_state"),
    ]);
  });

  it("POST /internal/projects refuses is_development_environment (and onboarding_state) as unknown properties", async () => {
    const service = await serviceOf(version);
    const founder = await service.emulator.control.createUser({ projectId: INTERNAL_KEYS.projectId, email: "founder@example.com" });
    const token = (await service.emulator.control.createSession(founder.id)).accessToken;
    // 2.8.86 requires an owner team (checked after the schema), 2.8.11 refuses one.
    const owner = version === "2.8.86" ? { owner_team_id: "9c2b7e4a-1f3d-4a6b-8e5c-2d7f9a1b3c5e" } : {};
    const refused = await service.call("POST", "/internal/projects", {
      keys: INTERNAL_KEYS,
      token,
      body: { display_name: "Acme", is_development_environment: true, onboarding_state: ONBOARDING_STATE, ...owner },
    });
    expect([refused.status, refused.body]).toEqual([
      400,
      schemaError("POST", "/internal/projects", "body contains unknown properties: is_development_environment, onboarding_state"),
    ]);
    const listed = await service.call("GET", "/internal/projects", { keys: INTERNAL_KEYS, token });
    expect(listed.body.items).toEqual([]);
  });
});
