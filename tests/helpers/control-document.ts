// Checks exchanges with the emulator's control API (`/emulator/v1/…`) against its own
// OpenAPI document, emulator/control-openapi.json, as tests/helpers/emulator.ts checks
// the service's API against generated/openapi.json: an exchange of a documented route
// must fit it (parameters, body, status, answer); any other exchange must be the
// documented 404 (a path that is no control route) or 405 (a control path asked with
// another method, whose `Allow` header lists exactly the methods the document gives
// that path), with a `ControlError` body.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { CONTROL_PREFIX } from "../../emulator/routes.js";
import { createExchangeValidator } from "./openapi-validator.js";

/** emulator/control-openapi.json, as read from the repository. */
export const controlDocument = JSON.parse(readFileSync(new URL("../../emulator/control-openapi.json", import.meta.url), "utf8")) as {
  readonly servers: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, Readonly<Record<string, { readonly operationId: string; readonly responses: object }>>>>;
  readonly components: object;
};

export type ControlDocument = typeof controlDocument;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Every operation of `document`, as `METHOD /path` (`POST /users`), sorted. */
export function documentedRoutes(document: ControlDocument): string[] {
  return Object.entries(document.paths)
    .flatMap(([path, item]) => METHODS.filter((method) => method in item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

/** Every answer `document` lists, as `operationId status` (`createUser 201`). */
export function documentedAnswers(document: ControlDocument): string[] {
  return Object.values(document.paths)
    .flatMap((item) =>
      Object.values(item).flatMap((operation) => Object.keys(operation.responses).map((status) => `${operation.operationId} ${status}`)),
    )
    .sort();
}

/**
 * The operations the emulator's page is built on, whose exchanges tests/emulator/control-inspect.test.ts checks
 * (tests/emulator/control-api.test.ts checks the others'): each file sees every answer of its own operations.
 */
export const INSPECTION_OPERATIONS: ReadonlySet<string> = new Set([
  "listProjects",
  "listUsers",
  "listTeams",
  "getUser",
  "updateUser",
  "deleteUser",
  "signInAs",
  "listSessions",
  "revokeSession",
  "getTeam",
  "getRequestExchange",
  "listFaults",
]);

/** The routes the emulator has that `document` does not describe, and those it describes that the emulator lacks. */
export function routeDifferences(routes: readonly string[], document: ControlDocument): { undocumented: string[]; missing: string[] } {
  const documented = documentedRoutes(document);
  return {
    undocumented: routes.filter((route) => !documented.includes(route)).sort(),
    missing: documented.filter((route) => !routes.includes(route)),
  };
}

export interface ControlChecker {
  /** What did not fit: `METHOD path status: where what`. */
  readonly violations: string[];
  /** `operationId status` of every exchange checked; `405` and `404` for the answers outside the document's operations. */
  readonly seen: Set<string>;
  /** How many exchanges were checked. */
  readonly checked: () => number;
  /** Checks one exchange; reads `request` and `response`, so pass copies of what is still needed. */
  check(request: Request, response: Response): Promise<void>;
}

export function controlChecker(document: ControlDocument = controlDocument): ControlChecker {
  const validator = createExchangeValidator(document);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(document, "urn:stackkit:control");
  const controlError = ajv.compile({ $ref: "urn:stackkit:control#/components/schemas/ControlError" });
  const violations: string[] = [];
  const seen = new Set<string>();
  let checked = 0;

  async function check(request: Request, response: Response): Promise<void> {
    checked++;
    const url = new URL(request.url);
    const requestText = await request.text();
    const responseText = await response.text();
    const headers = Object.fromEntries(response.headers);
    const body = parse(responseText);
    const say = (message: string) => violations.push(`${request.method} ${url.pathname}${url.search} ${response.status}: ${message}`);
    if (!url.pathname.startsWith(CONTROL_PREFIX)) say(`not a control path (${CONTROL_PREFIX}…)`);
    const path = url.pathname + url.search;
    const operation = validator.findOperation(request.method, path);
    if (operation) {
      seen.add(`${operation.operationId} ${response.status}`);
      const found = validator.validate({
        request: {
          method: request.method,
          path,
          headers: Object.fromEntries(request.headers),
          ...(requestText === "" ? {} : { body: parse(requestText) }),
        },
        response: { status: response.status, headers, ...(responseText === "" ? {} : { body }) },
      });
      for (const v of found) say(`${v.path} ${v.message}`);
      return;
    }
    // Not an operation of the document: a 405 for a documented path, a 404 for any other.
    const allowed = METHODS.map((method) => method.toUpperCase()).filter((method) => validator.findOperation(method, url.pathname));
    const expected = allowed.length > 0 ? 405 : 404;
    seen.add(String(response.status));
    if (response.status !== expected) say(`expected ${expected} for a route the document does not describe`);
    if (response.headers.get("content-type")?.startsWith("application/json") !== true) say("the answer is not JSON");
    if (request.method !== "HEAD" && !controlError(body)) say(`the body is not a ControlError: ${ajv.errorsText(controlError.errors)}`);
    const allow = (response.headers.get("allow") ?? "")
      .split(",")
      .map((method) => method.trim())
      .filter(Boolean)
      .sort();
    if (expected === 405 && allow.join(", ") !== [...allowed].sort().join(", ")) {
      say(`Allow is ${JSON.stringify(response.headers.get("allow"))}, the document gives the path ${allowed.join(", ")}`);
    }
  }

  return { violations, seen, checked: () => checked, check };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
