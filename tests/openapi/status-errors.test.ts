// Two things the service does that a document written from the SDK's point of view misses.
// Its `StatusError` answers some failures with a status and a plain-text message, outside the
// known-error catalogue: every operation must document that text (beside the JSON known errors
// of each error status, and as its `default` for the other statuses). And `PATCH /users/me`
// is the server's user update too when called with server or admin access: its body must take
// every field of `PATCH /users/{user_id}`.
import { describe, expect, it } from "vitest";
import { doc, operations, resolve, type Operation, type Response } from "../fixtures/document.js";

const titled = operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const);
const textSchema = (response: Response) => {
  const schema = response.content?.["text/plain"]?.schema as { $ref?: string; type?: string } | undefined;
  return schema ? (resolve(schema) as { type?: string }).type : undefined;
};

describe("plain-text status errors", () => {
  it.each(titled)("%s documents them under every error status and as its default", (_, { op }) => {
    const errorStatuses = Object.keys(op.responses).filter((status) => /^[45]\d\d$/.test(status));
    expect(errorStatuses.length).toBeGreaterThan(0);
    for (const status of errorStatuses) {
      const response = resolve(op.responses[status]!);
      expect(textSchema(response), `status ${status}`).toBe("string");
      expect(response.content?.["application/json"], `status ${status} keeps its JSON known errors`).toBeDefined();
      expect(response.headers?.["x-stack-known-error"], `status ${status}`).toBeDefined();
    }
    const fallback = resolve(op.responses["default"] ?? {});
    expect(Object.keys(fallback.content ?? {})).toEqual(["text/plain"]);
    expect(textSchema(fallback)).toBe("string");
    // A status error never carries the known-error header; only the known errors do.
    expect(fallback.headers?.["x-stack-known-error"]).toBeUndefined();
  });

  it("leave the known-error header optional, since a text answer of the same status has none", () => {
    const knownErrorResponses = Object.entries(doc.components.responses).filter(([name]) => name.startsWith("KnownErrors"));
    expect(knownErrorResponses.length).toBeGreaterThan(0);
    for (const [name, response] of knownErrorResponses) {
      expect((response.headers?.["x-stack-known-error"] as { required?: boolean } | undefined)?.required, name).not.toBe(true);
    }
  });
});

describe("PATCH /users/me", () => {
  type BodySchema = { additionalProperties?: boolean; properties?: Record<string, unknown> };
  const bodyOf = (operation: Operation) => operation.requestBody!.content["application/json"]!.schema as BodySchema;
  const currentUser = bodyOf(doc.paths["/users/me"]!["patch"]!);
  const anyUser = bodyOf(doc.paths["/users/{user_id}"]!["patch"]!);

  it("takes every field of the server's user update, for server and admin access", () => {
    const serverFields = Object.keys(anyUser.properties ?? {});
    expect(serverFields).toEqual(expect.arrayContaining(["client_read_only_metadata", "server_metadata", "primary_email", "password", "is_anonymous"]));
    expect(Object.keys(currentUser.properties ?? {})).toEqual(expect.arrayContaining(serverFields));
  });

  it("stays closed, so a misspelt field is still caught", () => {
    expect(currentUser.additionalProperties).toBe(false);
  });

  it("answers the server update's e-mail conflict", () => {
    expect(doc.paths["/users/me"]!["patch"]!["x-stack-known-errors"]).toContain("USER_EMAIL_ALREADY_EXISTS");
    expect(doc.paths["/users/{user_id}"]!["patch"]!["x-stack-known-errors"]).toContain("USER_EMAIL_ALREADY_EXISTS");
  });
});
