// @ts-check
// Bundles openapi/openapi.yaml into one document and expands what the source
// states once instead of a hundred times: the error responses of each operation.
//
// Why a second step after `redocly bundle`: the source lists, per operation, only
// the known errors particular to it (`x-stack-known-errors`). The errors every
// operation shares (project authentication of its access types, access-token
// errors when it takes a user, SCHEMA_ERROR, BODY_PARSING_ERROR) follow from its
// security requirements. Writing both into the bundle, with one example per code
// whose `x-stack-known-error` header equals the body's `code`, gives mocks and
// generated types the full picture while the source stays short.
//
// The headers that allow an anonymous or restricted user's token (2.8.86) apply to every
// operation that takes a user's access token, so they are stated once, as the root's
// components.parameters, and added to each such operation here.
//
// The service also fails some requests outside the catalogue: its `StatusError`
// answers a status with a plain-text message and no `x-stack-known-error` (a 403
// "Client can only manage their own api keys", a 404 "Session not found."). Any
// handler can throw one, so every error status carries `text/plain` beside the
// JSON known errors, and every operation gets the root's `StatusError` response as
// its `default`, for the statuses no known error of the operation uses.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** Methods that may be sent twice without harm (SPEC §9: only they retry on network errors). */
export const IDEMPOTENT_METHODS = new Set(["get", "put", "delete", "options", "head", "trace"]);

const SCHEME_ACCESS_TYPE = {
  PublishableClientKey: "client",
  SecretServerKey: "server",
  SuperSecretAdminKey: "admin",
  AdminAccessToken: "admin",
};

const PROJECT_AUTH_ERRORS = [
  // The project the headers name does not exist (any more): the service answers this on every call
  // (2.8.86: CURRENT_PROJECT_NOT_FOUND; BRANCH_DOES_NOT_EXIST for an unknown x-stack-branch-id).
  "PROJECT_NOT_FOUND",
  "CURRENT_PROJECT_NOT_FOUND",
  "BRANCH_DOES_NOT_EXIST",
  "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
  "INVALID_ACCESS_TYPE",
  "ACCESS_TYPE_WITHOUT_PROJECT_ID",
  "ACCESS_TYPE_REQUIRED",
];
const ACCESS_TYPE_ERRORS = {
  // 2.8.86 answers PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT where 2.8.11 answers CLIENT_AUTHENTICATION_REQUIRED.
  client: ["CLIENT_AUTHENTICATION_REQUIRED", "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", "INVALID_PUBLISHABLE_CLIENT_KEY"],
  server: ["SERVER_AUTHENTICATION_REQUIRED", "INVALID_SECRET_SERVER_KEY"],
  admin: ["ADMIN_AUTHENTICATION_REQUIRED", "INVALID_SUPER_SECRET_ADMIN_KEY"],
};
const ADMIN_ACCESS_TOKEN_ERRORS = [
  "UNPARSABLE_ADMIN_ACCESS_TOKEN",
  "ADMIN_ACCESS_TOKEN_EXPIRED",
  "INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN",
  "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
];
/** The root's plain-text status-error response and its body schema (openapi/openapi.yaml). */
export const STATUS_ERROR_RESPONSE = "StatusError";
export const STATUS_ERROR_SCHEMA = "StatusErrorMessage";
const ACCESS_TOKEN_ERRORS = [
  "UNPARSABLE_ACCESS_TOKEN",
  "ACCESS_TOKEN_EXPIRED",
  "INVALID_PROJECT_FOR_ACCESS_TOKEN",
  // 2.8.86: an anonymous or restricted user's token without the header that allows it.
  "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
  "RESTRICTED_USER_NOT_ALLOWED",
];
/** The root's header parameters every operation that takes a user's access token gets. */
export const USER_TOKEN_HEADER_PARAMETERS = ["AllowAnonymousUserHeader", "AllowRestrictedUserHeader"];

/**
 * Runs the pinned Redocly CLI to resolve every external $ref into one document.
 * @param {string} root repository root
 * @returns {any}
 */
export function redoclyBundle(root) {
  const dir = mkdtempSync(path.join(tmpdir(), "stackkit-bundle-"));
  try {
    const out = path.join(dir, "bundle.json");
    runRedocly(root, ["bundle", "openapi/openapi.yaml", "--ext", "json", "-o", out]);
    return JSON.parse(readFileSync(out, "utf8"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the pinned Redocly CLI with telemetry and update checks off, so that it
 * makes no connection; on failure, throws with what it printed.
 * @param {string} root
 * @param {string[]} args
 */
export function runRedocly(root, args) {
  try {
    return execFileSync(process.execPath, [path.join(root, "node_modules/@redocly/cli/bin/cli.js"), ...args], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
  } catch (error) {
    const e = /** @type {{ stdout?: string, stderr?: string }} */ (error);
    // Drop the boxed Node-version notice Redocly prints on every run.
    const said = `${e.stdout ?? ""}${e.stderr ?? ""}`
      .split("\n")
      .filter((l) => !/[║╔╚]/.test(l))
      .join("\n")
      .trim();
    throw new Error(`redocly ${args[0]} failed:\n${said}`);
  }
}

/**
 * Every operation of a document, in document order.
 * @param {any} doc
 * @returns {{ path: string, method: string, op: any }[]}
 */
export function listOperations(doc) {
  /** @type {{ path: string, method: string, op: any }[]} */
  const out = [];
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) if (item[method]) out.push({ path: p, method, op: item[method] });
  }
  return out;
}

/**
 * The catalogue entries of the document: code -> extension, schema.
 * @param {any} doc
 */
export function readCatalogue(doc) {
  /** @type {Map<string, { ext: any, schema: any }>} */
  const catalogue = new Map();
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const ext = schema["x-stack-known-error"];
    if (ext) catalogue.set(name, { ext, schema });
  }
  return catalogue;
}

/**
 * Follows local `#/...` references.
 * @param {any} doc
 * @param {any} node
 * @returns {any}
 */
export function resolveRef(doc, node) {
  if (!node || typeof node.$ref !== "string" || !node.$ref.startsWith("#/")) return node;
  const target = node.$ref
    .slice(2)
    .split("/")
    .map((/** @type {string} */ key) => key.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((/** @type {any} */ at, /** @type {string} */ key) => at?.[key], doc);
  if (target === undefined) throw new Error(`unresolved reference ${node.$ref}`);
  return resolveRef(doc, target);
}

/**
 * What the generator and the runtime need to know about how an operation is called.
 * @param {any} doc the bundled document, to resolve parameter references
 * @param {any} op
 */
export function describeAccess(doc, op) {
  const alternatives = /** @type {Record<string, unknown>[]} */ (op.security ?? []);
  const accessTypes = new Set(op["x-stack-access-types"] ?? []);
  for (const alt of alternatives) {
    for (const scheme of Object.keys(alt)) {
      const type = SCHEME_ACCESS_TYPE[/** @type {keyof typeof SCHEME_ACCESS_TYPE} */ (scheme)];
      if (type) accessTypes.add(type);
    }
  }
  const withUser = alternatives.filter((alt) => "AccessToken" in alt);
  const clientAlternatives = alternatives.filter((alt) => "PublishableClientKey" in alt);
  /** @type {"none" | "optional" | "required"} */
  let userTokens = "none";
  if (withUser.length > 0) {
    userTokens = clientAlternatives.length > 0 && clientAlternatives.every((alt) => "AccessToken" in alt) ? "required" : "optional";
  }
  const refreshTokenHeader = (op.parameters ?? [])
    .map((/** @type {any} */ p) => resolveRef(doc, p))
    .some((/** @type {any} */ p) => p.in === "header" && p.name === "x-stack-refresh-token");
  return {
    accessTypes: ["client", "server", "admin"].filter((t) => accessTypes.has(t)),
    sendsStackHeaders: alternatives.length > 0,
    adminAccessToken: alternatives.some((alt) => "AdminAccessToken" in alt),
    userTokens,
    refreshTokenHeader,
  };
}

/**
 * The known errors an operation can answer: the ones it lists plus the shared ones.
 * @param {any} doc
 * @param {any} op
 * @param {Map<string, { ext: any }>} catalogue
 * @param {string} where for messages
 */
export function knownErrorsOf(doc, op, catalogue, where) {
  const access = describeAccess(doc, op);
  const codes = new Set(["SCHEMA_ERROR"]);
  if (op.requestBody) codes.add("BODY_PARSING_ERROR");
  if (access.sendsStackHeaders) {
    for (const code of PROJECT_AUTH_ERRORS) codes.add(code);
    if (access.accessTypes.length < 3) codes.add("INSUFFICIENT_ACCESS_TYPE");
    for (const type of access.accessTypes) {
      for (const code of ACCESS_TYPE_ERRORS[/** @type {"client"|"server"|"admin"} */ (type)]) codes.add(code);
    }
    if (access.adminAccessToken) for (const code of ADMIN_ACCESS_TOKEN_ERRORS) codes.add(code);
    // The service reads an access token sent to any route that takes the x-stack headers, so its errors are every
    // such operation's, whether it uses the user or not.
    for (const code of ACCESS_TOKEN_ERRORS) codes.add(code);
  }
  for (const code of op["x-stack-known-errors"] ?? []) {
    const entry = catalogue.get(code);
    if (!entry) throw new Error(`${where}: x-stack-known-errors names ${code}, which is not in the catalogue`);
    if (entry.ext.abstract) throw new Error(`${where}: ${code} is an abstract parent; list its children instead`);
    codes.add(code);
  }
  return [...codes];
}

/**
 * Writes the error responses of every operation into a bundled document.
 * @param {any} doc the output of {@link redoclyBundle}; changed in place
 */
export function expandKnownErrors(doc) {
  const catalogue = readCatalogue(doc);
  if (!doc.components?.responses?.[STATUS_ERROR_RESPONSE]) {
    throw new Error(
      `components.responses.${STATUS_ERROR_RESPONSE} is missing from openapi/openapi.yaml; every operation's default response refers to it`,
    );
  }
  if (!doc.components?.schemas?.[STATUS_ERROR_SCHEMA]) {
    throw new Error(`components.schemas.${STATUS_ERROR_SCHEMA} is missing from openapi/openapi.yaml; every error response refers to it`);
  }
  // One example per code, referenced by every response that can carry it.
  doc.components.examples ??= {};
  for (const [code, { schema }] of catalogue) {
    if (doc.components.examples[code]) throw new Error(`components.examples.${code} exists already`);
    doc.components.examples[code] = { summary: code, value: schema.examples?.[0] };
  }
  for (const name of USER_TOKEN_HEADER_PARAMETERS) {
    if (!doc.components?.parameters?.[name]) throw new Error(`components.parameters.${name} is missing from openapi/openapi.yaml`);
  }
  for (const { path: p, method, op } of listOperations(doc)) {
    const where = `${method.toUpperCase()} ${p}`;
    if ((op.security ?? []).some((/** @type {Record<string, unknown>} */ alt) => "AccessToken" in alt)) {
      for (const name of USER_TOKEN_HEADER_PARAMETERS) {
        const ref = `#/components/parameters/${name}`;
        if ((op.parameters ?? []).some((/** @type {any} */ q) => q.$ref === ref))
          throw new Error(`${where}: ${name} is written by hand; the bundler adds it`);
        op.parameters = [...(op.parameters ?? []), { $ref: ref }];
      }
    }
    const codes = knownErrorsOf(doc, op, catalogue, where);
    op["x-stack-known-errors"] = codes;
    /** @type {Map<string, string[]>} */
    const byStatus = new Map();
    for (const code of codes) {
      const status = String(catalogue.get(code)?.ext.status);
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
    const otherBodies = otherErrorBodiesOf(doc, op, byStatus, where);
    delete op[OTHER_ERROR_BODIES];
    for (const [status, group] of [...byStatus].sort(([a], [b]) => Number(a) - Number(b))) {
      if (op.responses[status]) throw new Error(`${where}: response ${status} is written by hand; known errors are added by the bundler`);
      const others = otherBodies[status] ?? [];
      // Operations with the same codes (and other bodies) share one response component. Its name is
      // a digest of them, so it stays put when other operations change.
      const digest = createHash("sha256")
        .update([...group, ...others].join(","))
        .digest("hex")
        .slice(0, 8);
      const name = `KnownErrors${status}_${digest}`;
      doc.components.responses ??= {};
      doc.components.responses[name] ??= errorResponse(group, others);
      op.responses[status] = { $ref: `#/components/responses/${name}` };
    }
    if (op.responses.default)
      throw new Error(`${where}: the default response is written by hand; the bundler adds the status-error default`);
    op.responses.default = { $ref: `#/components/responses/${STATUS_ERROR_RESPONSE}` };
  }
  doc.components.responses = Object.fromEntries(Object.entries(doc.components.responses ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  return doc;
}

/**
 * The source's `x-stack-other-error-bodies`: for a status, the root's schemas (by name) of JSON error bodies that
 * are no known error (no `code`, no `x-stack-known-error`), which the operation answers beside its known errors of
 * that status, such as the OAuth library's own refusals at the token endpoint.
 * @param {any} doc
 * @param {any} op
 * @param {Map<string, string[]>} byStatus the operation's known errors by status
 * @param {string} where for messages
 * @returns {Record<string, string[]>}
 */
function otherErrorBodiesOf(doc, op, byStatus, where) {
  const bodies = op[OTHER_ERROR_BODIES] ?? {};
  for (const [status, names] of Object.entries(bodies)) {
    if (!byStatus.has(status))
      throw new Error(`${where}: ${OTHER_ERROR_BODIES} names status ${status}, which none of its known errors has`);
    for (const name of /** @type {string[]} */ (names)) {
      if (!doc.components?.schemas?.[name])
        throw new Error(`${where}: ${OTHER_ERROR_BODIES} names ${name}, which is not in components.schemas`);
    }
  }
  return bodies;
}

const OTHER_ERROR_BODIES = "x-stack-other-error-bodies";

/**
 * @param {string[]} codes all with the same status
 * @param {string[]} others the root's schemas of other JSON error bodies of that status
 */
function errorResponse(codes, others = []) {
  const refs = [...codes, ...others].map((name) => ({ $ref: `#/components/schemas/${name}` }));
  return {
    description:
      `Known error: ${codes.join(", ")} (JSON, with \`x-stack-known-error\`), ` +
      (others.length > 0 ? `${others.join(", ")} (JSON, without it), ` : "") +
      "or a status error of the service (plain text, without it). " +
      "With `x-stack-override-error-status` it arrives as HTTP 200 and this status is in `x-stack-actual-status`.",
    headers: {
      "x-stack-known-error": {
        // Absent on a plain-text status error of the same status, so it cannot be required.
        description: "The known-error code, always equal to the body's `code`; present exactly when the body is a JSON known error.",
        required: false,
        schema: { type: "string", enum: codes },
        examples: Object.fromEntries(codes.map((code) => [code, { value: code }])),
      },
      "x-stack-actual-status": { $ref: "#/components/headers/ActualStatus" },
    },
    content: {
      "application/json": {
        schema: refs.length === 1 ? refs[0] : { oneOf: refs },
        examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }])),
      },
      "text/plain": {
        schema: { $ref: `#/components/schemas/${STATUS_ERROR_SCHEMA}` },
      },
    },
  };
}
