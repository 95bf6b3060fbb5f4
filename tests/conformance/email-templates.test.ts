// The default e-mail templates a project starts with, as each version answers
// them. 2.8.11: GET /email-templates lists the four types of
// packages/stack-shared/src/interface/crud/email-templates.ts, each a type the
// project has not customised answered with EMAIL_TEMPLATES_METADATA's default
// subject and content version 2 (apps/backend/src/app/api/latest/email-templates/crud.tsx,
// packages/stack-emails/src/utils.tsx), the documents of
// packages/stack-emails/src/templates/*.tsx. 2.8.86: GET /internal/email-templates
// lists the project's config templates (apps/backend/src/app/api/latest/internal/email-templates/route.tsx),
// by default DEFAULT_EMAIL_TEMPLATES of packages/stack-shared/src/helpers/emails.ts,
// `theme_id` left out as their `themeId` is undefined. The files under
// __snapshots__/email-templates/ are those sources' content, the documents as
// JSON with two-space indentation and the TSX sources as they are (.tsx.txt, out of the
// type-checker's way).
import { describe, expect, it } from "vitest";
import { serviceOf } from "./harness.js";

const snapshot = (version: string, name: string) => `./__snapshots__/email-templates/${version}/${name}`;

describe("on 2.8.11", () => {
  const SUBJECTS = {
    email_verification: "Verify your email at {{ projectDisplayName }}",
    password_reset: "Reset your password at {{ projectDisplayName }}",
    magic_link: "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
    team_invitation: "You have been invited to join {{ teamDisplayName }}",
  } as const;

  it("lists the four template types in the service's order, each the default with its default subject", async () => {
    const answer = await (await serviceOf("2.8.11")).call("GET", "/email-templates", { as: "admin" });
    expect(answer.status).toBe(200);
    expect(answer.body.is_paginated).toBe(false);
    expect(answer.body.items.map((t: Record<string, unknown>) => [t.type, t.subject, t.is_default, Object.keys(t).sort()])).toEqual(
      Object.entries(SUBJECTS).map(([type, subject]) => [type, subject, true, ["content", "is_default", "subject", "type"]]),
    );
  });

  for (const type of Object.keys(SUBJECTS)) {
    it(`answers ${type}'s default content as the service's editor document, key for key`, async () => {
      const answer = await (await serviceOf("2.8.11")).call("GET", "/email-templates", { as: "admin" });
      const template = answer.body.items.find((t: { type: string }) => t.type === type);
      await expect(JSON.stringify(template.content, null, 2)).toMatchFileSnapshot(snapshot("2.8.11", `${type}.json`));
    });
  }

  it("answers the default again once a customised template is reset", async () => {
    const service = await serviceOf("2.8.11");
    const before = (await service.call("GET", "/email-templates", { as: "admin" })).body.items;
    const ownServer = {
      type: "standard",
      host: "smtp.example.com",
      port: 587,
      username: "test@example.com",
      password: "password123",
      sender_name: "Test App",
      sender_email: "noreply@example.com",
    };
    const configured = await service.call("PATCH", "/internal/projects/current", {
      as: "admin",
      body: { config: { email_config: ownServer } },
    });
    expect(configured.status).toBe(200);
    const empty = {
      root: {
        type: "EmailLayout",
        data: { backdropColor: "#F5F5F5", canvasColor: "#FFFFFF", textColor: "#262626", fontFamily: "MODERN_SANS", childrenIds: [] },
      },
    };
    const changed = await service.call("PATCH", "/email-templates/password_reset", {
      as: "admin",
      body: { subject: "Custom Password Reset", content: empty },
    });
    expect(changed.body).toEqual({ type: "password_reset", subject: "Custom Password Reset", content: empty, is_default: false });
    expect((await service.call("DELETE", "/email-templates/password_reset", { as: "admin" })).status).toBe(200);
    expect((await service.call("GET", "/email-templates", { as: "admin" })).body.items).toEqual(before);
  });
});

describe("on 2.8.86", () => {
  const DEFAULTS = [
    ["email_verification", "e7d009ce-8d47-4528-b245-5bf119f2ffa3", "Email Verification"],
    ["password_reset", "a70fb3a4-56c1-4e42-af25-49d25603abd0", "Password Reset"],
    ["magic_link", "822687fe-8d0a-4467-a0d1-416b6e639478", "Magic Link/OTP"],
    ["team_invitation", "e84de395-2076-4831-9c19-8e9a96a868e4", "Team Invitation"],
  ] as const;

  const templates = async () => {
    const answer = await (await serviceOf("2.8.86")).call("GET", "/internal/email-templates", { as: "admin" });
    expect(answer.status).toBe(200);
    return answer.body.templates as { id: string; display_name: string; tsx_source: string; theme_id?: unknown }[];
  };

  it("lists the default templates first, by their fixed ids and display names, in the service's order, without theme_id", async () => {
    const listed = await templates();
    expect(listed.slice(0, DEFAULTS.length).map((t) => [t.id, t.display_name, Object.keys(t)])).toEqual(
      DEFAULTS.map(([, id, name]) => [id, name, ["id", "display_name", "tsx_source"]]),
    );
  });

  for (const [type, id] of DEFAULTS) {
    it(`answers ${type}'s default TSX source as the service's default, byte for byte`, async () => {
      const template = (await templates()).find((t) => t.id === id);
      await expect(template?.tsx_source).toMatchFileSnapshot(snapshot("2.8.86", `${type}.tsx.txt`));
    });
  }
});
