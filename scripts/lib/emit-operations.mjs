// @ts-check
// Writes generated/operations.ts: the table the runtime reads to call an
// operation correctly (which headers it takes, whether it may be retried)
// without parsing the document at run time, and the known errors of each;
// and generated/read-operations.ts, the path of every read.

import { describeAccess, IDEMPOTENT_METHODS, listOperations, resolveRef } from "./bundle.mjs";

/** The ROUTE_ bits most operations have (ROUTE_DEFAULTS: the x-stack headers, a JSON answer), left out of the route table. */
const ROUTE_DEFAULTS = 1 | 4;

/**
 * @param {any} doc the expanded bundle
 * @param {string} stamp
 */
export function emitOperations(doc, stamp) {
  const rows = [];
  const errorRows = [];
  /** @type {Map<string, string[]>} each path's operations, in the document's order */
  const routesByPath = new Map();
  const routeKeys = [];
  const ids = new Set();
  for (const { path, method, op } of listOperations(doc)) {
    const id = op.operationId;
    if (typeof id !== "string" || !/^[a-z][A-Za-z0-9]*$/.test(id))
      throw new Error(`${method} ${path}: operationId ${id} is not a camelCase identifier`);
    if (ids.has(id)) throw new Error(`operationId ${id} is used twice`);
    ids.add(id);
    const access = describeAccess(doc, op);
    const content = Object.keys(op.requestBody?.content ?? {});
    const body = content.includes("application/x-www-form-urlencoded") ? "form" : content.length > 0 ? "json" : "none";
    const answers = Object.entries(op.responses ?? {})
      .filter(([status]) => /^2\d\d$/.test(status))
      .flatMap(([, response]) => Object.keys(resolveRef(doc, response).content ?? {}));
    const responseBody = answers.includes("application/json") ? "json" : answers.length > 0 ? "text" : "none";
    const fields = [
      `method: ${JSON.stringify(method.toUpperCase())}`,
      `path: ${JSON.stringify(path)}`,
      `tag: ${JSON.stringify(op.tags?.[0] ?? "")}`,
      `accessTypes: ${JSON.stringify(access.accessTypes)}`,
      `stackHeaders: ${access.sendsStackHeaders}`,
      `userTokens: ${JSON.stringify(access.userTokens)}`,
      `refreshTokenHeader: ${access.refreshTokenHeader}`,
      `idempotent: ${IDEMPOTENT_METHODS.has(method)}`,
      `requestBody: ${JSON.stringify(body)}`,
      `responseBody: ${JSON.stringify(responseBody)}`,
      op["x-stack-navigation"] ? "navigation: true" : null,
    ].filter(Boolean);
    errorRows.push(`  ${id}: ${JSON.stringify(op["x-stack-known-errors"] ?? [])},`);
    const flags =
      (access.sendsStackHeaders ? 1 : 0) |
      (access.refreshTokenHeader ? 2 : 0) |
      (responseBody === "json" ? 4 : responseBody === "text" ? 8 : 0) |
      (body === "form" ? 16 : 0);
    routeKeys.push(`  | ${JSON.stringify(`${method.toUpperCase()} ${path}`)}`);
    const route = [JSON.stringify(method.toUpperCase()), JSON.stringify(id), ...(flags === ROUTE_DEFAULTS ? [] : [flags])];
    routesByPath.set(path, [...(routesByPath.get(path) ?? []), `[${route.join(", ")}]`]);
    rows.push(
      `  /** ${method.toUpperCase()} ${path}${op.summary ? `: ${op.summary}` : ""} */\n  ${id}: {\n${fields.map((f) => `    ${f},`).join("\n")}\n  },`,
    );
  }
  return [
    stamp,
    'import type { KnownErrorCode } from "./known-errors.js";',
    "",
    "/** An HTTP method an operation of the document may use. */",
    'export type HttpMethod = "GET" | "PUT" | "POST" | "DELETE" | "OPTIONS" | "HEAD" | "PATCH" | "TRACE";',
    "/** The kind of app a call is made as (`x-stack-access-type`): a client, a server or an admin app. */",
    'export type AccessType = "client" | "server" | "admin";',
    "",
    "/** What the runtime knows of how one operation is called: an entry of {@link operations}. */",
    "export interface OperationInfo {",
    "  readonly method: HttpMethod;",
    "  /** Relative to `<baseUrl>/api/v1`. */",
    "  readonly path: string;",
    "  readonly tag: string;",
    "  /** The kinds of app that may call it. */",
    "  readonly accessTypes: readonly AccessType[];",
    "  /** False for the token endpoint and the authorize navigation, which get no `x-stack-*` headers. */",
    "  readonly stackHeaders: boolean;",
    "  /** Whether a client must (`required`) or may (`optional`) send the user's access token. */",
    '  readonly userTokens: "none" | "optional" | "required";',
    "  /** Whether it reads `x-stack-refresh-token`; no other operation is sent the refresh token. */",
    "  readonly refreshTokenHeader: boolean;",
    "  /** GET, PUT, DELETE, OPTIONS, HEAD, TRACE: safe to resend after a network error. */",
    "  readonly idempotent: boolean;",
    '  readonly requestBody: "json" | "form" | "none";',
    "  /** What a 2xx answer carries: JSON, plain text, or nothing (a navigation). */",
    '  readonly responseBody: "json" | "text" | "none";',
    "  /** A browser navigation, never fetched. */",
    "  readonly navigation?: true;",
    "}",
    "",
    "/**",
    " * Every operation of the API by its operationId: its method and path, who may call it, which",
    " * tokens and headers it takes, whether it may be resent, and what its answer carries.",
    " *",
    " * @example",
    " * ```ts",
    ' * const { method, path, accessTypes } = operations.getCurrentUser; // "GET", "/users/me", ["client", "server", "admin"]',
    " * ```",
    " */",
    "export const operations = {",
    ...rows,
    "} as const satisfies Record<string, OperationInfo>;",
    "",
    '/** The operationId of an operation of the document (`"getCurrentUser"`). */',
    "export type OperationId = keyof typeof operations;",
    "",
    "/** Bits of an {@link operationRoutes} entry. */",
    "export const ROUTE_STACK_HEADERS = 1;",
    "export const ROUTE_REFRESH_TOKEN_HEADER = 2;",
    "export const ROUTE_JSON_RESPONSE = 4;",
    "export const ROUTE_TEXT_RESPONSE = 8;",
    "export const ROUTE_FORM_BODY = 16;",
    "",
    "/** The general rules: the `x-stack-*` headers and a JSON answer (also a path the document does not list). */",
    "export const ROUTE_DEFAULTS = ROUTE_STACK_HEADERS | ROUTE_JSON_RESPONSE;",
    "",
    "/**",
    " * What the request pipeline needs of each operation, compact so that an app's bundle",
    " * does not carry the whole table above. One entry per path, its operations after it in",
    " * the document's order: `[path, [method, operationId, flags?], ...]`; the flags (the",
    " * ROUTE_ bits) are left out when they are {@link ROUTE_DEFAULTS}.",
    " */",
    "export const operationRoutes: readonly (readonly [path: string, ...operations: OperationRouteEntry[]])[] = [",
    ...[...routesByPath].map(([path, ops]) => `  [${JSON.stringify(path)}, ${ops.join(", ")}],`),
    "];",
    "",
    "/** One operation of an {@link operationRoutes} entry. */",
    "export type OperationRouteEntry = readonly [method: HttpMethod, operationId: OperationId, flags?: number];",
    "",
    '/** Every operation as `METHOD /path`: what the runtime\'s own calls name (`client.send("GET /users/me")`). */',
    "export type OperationRoute =",
    ...routeKeys.map((key, i) => (i === routeKeys.length - 1 ? `${key};` : key)),
    "",
    "/**",
    " * Every known error each operation can answer. Kept apart from {@link operations}",
    " * so that code needing only the call table does not bundle it.",
    " */",
    "export const operationKnownErrors = {",
    ...errorRows,
    "} as const satisfies { readonly [K in OperationId]: readonly KnownErrorCode[] };",
    "",
    "/** The codes of the known errors operation `K` can answer. */",
    "export type OperationKnownError<K extends OperationId> = (typeof operationKnownErrors)[K][number];",
    "",
  ].join("\n");
}

/**
 * Writes generated/read-operations.ts: the path of every read (a GET that is fetched,
 * not a navigation). A module of its own, so that query options load these paths and
 * nothing of the table in generated/operations.ts.
 * @param {any} doc the expanded bundle
 * @param {string} stamp
 */
export function emitReadOperations(doc, stamp) {
  const readRows = listOperations(doc)
    .filter(({ method, op }) => method.toUpperCase() === "GET" && !op["x-stack-navigation"])
    .map(({ path, op }) => `  ${op.operationId}: ${JSON.stringify(path)},`);
  return [
    stamp,
    'import type { OperationId, operations } from "./operations.js";',
    "",
    "/**",
    " * The path of every read (a GET that is fetched, not a navigation): what query",
    " * options need, without the rest of the operation table.",
    " */",
    "export const readOperationPaths = {",
    ...readRows,
    '} as const satisfies { readonly [K in OperationId]?: (typeof operations)[K]["path"] };',
    "",
  ].join("\n");
}
