// Every operation of the bundled document is complete enough to call, mock and
// generate from; every known-error example is consistent with the catalogue.
import { describe, expect, it } from "vitest";
import { catalogue, doc, operations, resolve } from "../fixtures/document.js";

const titled = operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const);
const statusOf = new Map(catalogue.map((c) => [c.code, c.ext.status]));

describe("every operation", () => {
  it("has a unique operationId", () => {
    const ids = operations.map((o) => o.op.operationId);
    expect(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(titled)("%s has one tag from the document's tag list", (_, { op }) => {
    expect(op.tags).toHaveLength(1);
    expect(doc.tags.map((t) => t.name)).toContain(op.tags![0]);
  });

  it.each(titled)("%s declares its security (empty only for the token endpoint, navigation, the public keys and the API's origins)", (_, { path, op }) => {
    expect(Array.isArray(op.security)).toBe(true);
    if (op.security!.length === 0) {
      expect([
        "/auth/oauth/token",
        "/auth/oauth/authorize/{provider}",
        "/projects/{project_id}/.well-known/jwks.json",
        "/internal/backend-urls",
      ]).toContain(path);
    }
    for (const alternative of op.security!) {
      expect(Object.keys(alternative)).toEqual(expect.arrayContaining(["ProjectId", "AccessType"]));
    }
  });

  it.each(titled)("%s has a success response with an example a mock can serve", (_, { op }) => {
    const success = Object.entries(op.responses).filter(([status]) => /^[23]\d\d$/.test(status));
    expect(success.length).toBeGreaterThan(0);
    for (const [status, raw] of success) {
      const response = resolve(raw);
      if (status.startsWith("3")) {
        expect(op["x-stack-navigation"]).toBe(true);
        expect(response.headers?.["Location"]).toBeDefined();
        continue;
      }
      const media = Object.values(response.content ?? {});
      expect(media.length).toBeGreaterThan(0);
      for (const m of media) {
        const examples = Object.values(m.examples ?? {}).map((e) => resolve(e).value);
        if (m.example !== undefined) examples.push(m.example);
        expect(examples.length).toBeGreaterThan(0);
        expect(examples.every((e) => e !== undefined)).toBe(true);
      }
    }
  });

  it.each(titled)("%s answers each of its known errors under the code's status", (_, { op }) => {
    const codes = op["x-stack-known-errors"] ?? [];
    expect(codes).toContain("SCHEMA_ERROR");
    for (const code of codes) {
      const response = resolve(op.responses[String(statusOf.get(code))] ?? {});
      expect(response.headers?.["x-stack-known-error"]?.schema?.enum, code).toContain(code);
    }
  });
});

describe("known-error responses", () => {
  const responses = Object.entries(doc.components.responses).filter(([name]) => name.startsWith("KnownErrors"));

  it.each(responses)("%s: each example's x-stack-known-error header equals its body's code and status", (name, response) => {
    const status = Number(/^KnownErrors(\d{3})_/.exec(name)![1]);
    const header = response.headers!["x-stack-known-error"]!;
    const bodies = response.content!["application/json"]!.examples!;
    expect(Object.keys(header.examples!)).toEqual(Object.keys(bodies));
    for (const [key, example] of Object.entries(bodies)) {
      const body = resolve(example).value as { code: string };
      expect(header.examples![key]!.value).toBe(body.code);
      expect(key).toBe(body.code);
      expect(statusOf.get(body.code)).toBe(status);
    }
  });

  it("are used only for concrete codes (abstract parents are never sent by a listed call)", () => {
    const abstract = new Set(catalogue.filter((c) => c.ext.abstract).map((c) => c.code));
    const listed = operations.flatMap((o) => o.op["x-stack-known-errors"] ?? []);
    expect(listed.filter((code) => abstract.has(code))).toEqual([]);
  });
});

describe("the refresh token", () => {
  it("is read, as a header parameter, by updatePassword and refreshCurrentSession only", () => {
    const readers = operations
      .filter((o) => (o.op.parameters ?? []).some((p) => resolve(p).in === "header" && resolve(p).name === "x-stack-refresh-token"))
      .map((o) => o.op.operationId)
      .sort();
    expect(readers).toEqual(["refreshCurrentSession", "updatePassword"]);
  });
});

describe("the override-error-status protocol", () => {
  it("is described in the document", () => {
    const info = (doc as unknown as { info: { description: string } }).info.description;
    expect(info).toContain("x-stack-override-error-status");
    expect(info).toContain("x-stack-actual-status");
    expect(info).toContain("x-stack-known-error");
  });
});

describe("the bundled document", () => {
  it("is a valid OpenAPI 3.1 document with every reference resolvable", async () => {
    const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeDefined();
  });
});
