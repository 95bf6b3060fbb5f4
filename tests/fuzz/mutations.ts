// Seeded mutations of a valid answer: wrong types, missing and extra fields,
// broken lists, truncated and blank bodies, HTML error pages, wrong content
// types, inconsistent known errors, junk Retry-After, redirects and odd
// statuses. Everything random comes from one PRNG, so a seed replays a run.
import { operationKnownErrors, type OperationId } from "../../generated/operations.js";
import type { BaseAnswer } from "./answers.js";

/** mulberry32: a small, fast, seedable PRNG with a uniform output in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of case `index` of a run: each case replays on its own. */
export function caseSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** A key of `weights`, drawn in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let at = this.next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [key, weight] of entries) {
      at -= weight;
      if (at < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }
}

/** An answer as the fake service serves it. */
export interface ServedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Null: no body at all. */
  readonly body: string | null;
}

export type MutationKind =
  | "wrong-type"
  | "odd-value"
  | "delete-field"
  | "extra-field"
  | "list-items"
  | "list-element"
  | "combined"
  | "truncated"
  | "whitespace-body"
  | "empty-body"
  | "html-page"
  | "content-type"
  | "known-error-mismatch"
  | "known-error-unknown-code"
  | "known-error-wrong-details"
  | "known-error-not-json"
  | "rate-limit-junk-retry-after"
  | "redirect"
  | "odd-status";

export interface Mutation {
  readonly kind: MutationKind;
  /** What was done, for the failure report: `wrong-type $.items[0].id := 42`. */
  readonly label: string;
  /** True when the answer stays valid (extra fields, a 429 that clears): the call must then succeed. */
  readonly mustSucceed: boolean;
  /** The JSON path of the first field made bad, when the mutation made one. */
  readonly path?: string;
  /** The n-th answer (0-based) served for the operation under test in this case. */
  answer(attempt: number): ServedAnswer;
}

const JSON_HEADERS = { "content-type": "application/json" } as const;

// Numbers JSON can carry but JavaScript cannot hold as they are; written raw into the text.
const RAW_MARK = "\u0000fuzz-raw:";
const raw = (text: string) => `${RAW_MARK}${text}`;

/** JSON text of `value`, with raw markers replaced by the literal they carry (`1e400`, `-0`, ...). */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value ?? null).replace(/"\\u0000fuzz-raw:([^"]*)"/g, "$1");
}

type JsonType = "string" | "number" | "boolean" | "null" | "array" | "object";

const typeOf = (value: unknown): JsonType =>
  value === null ? "null" : Array.isArray(value) ? "array" : (typeof value as "string" | "number" | "boolean" | "object");

const LONG = "a".repeat(3000);

const POOLS: Readonly<Record<JsonType, readonly unknown[]>> = {
  string: [
    "",
    " ",
    "x",
    "NaN",
    "Infinity",
    "-Infinity",
    "1e400",
    "null",
    "true",
    "0",
    "-1",
    "2026-02-30T25:61:00Z",
    "not-a-uuid",
    "..",
    "t\u00f6k\u20acn \u2603",
    "\ud834\udd1e",
    "\u00ff\u0100",
    "<b>html</b>",
    LONG,
  ],
  number: [
    0,
    -1,
    1.5,
    42,
    Number.MAX_SAFE_INTEGER,
    8.64e15 + 1,
    -8.64e15 - 1,
    1e21,
    raw("1e400"),
    raw("-1e400"),
    raw("-0"),
    raw("123456789012345678901234567890"),
  ],
  boolean: [true, false],
  null: [null],
  array: [[], [null], [1, "a", {}], [[]]],
  object: [{}, { id: 1 }, { items: "x" }, { nested: { deeper: [1, { id: null }] } }],
};

/** Values of the same JSON type that a careless reader mishandles: tokens with characters above U+00FF, dates out of range. */
const ODD: Readonly<Partial<Record<JsonType, readonly unknown[]>>> = {
  string: ["", " ", "t\u00f6k\u20acn-\u2603", "\u0100\u0101", "line\nbreak", "\u0000", "..", "../../users", LONG, "NaN", "2026-02-30"],
  number: [8.64e15 + 1, -8.64e15 - 1, raw("1e400"), raw("-1e400"), raw("-0"), -1, 0.5, 1e300, Number.MIN_VALUE],
};

function wrongValue(rng: Rng, current: unknown): unknown {
  const type = typeOf(current);
  const types = (Object.keys(POOLS) as JsonType[]).filter((t) => t !== type);
  return rng.pick(POOLS[rng.pick(types)]);
}

function anyValue(rng: Rng): unknown {
  return rng.pick(POOLS[rng.pick(Object.keys(POOLS) as JsonType[])]);
}

function describeValue(value: unknown): string {
  if (typeof value === "string" && value.startsWith(RAW_MARK)) return value.slice(RAW_MARK.length);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

type Path = readonly (string | number)[];

export function formatPath(path: Path): string {
  return `$${path.map((key) => (typeof key === "number" ? `[${key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`)).join("")}`;
}

/** Every path in `value`, the root included. */
function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((item, i) => pathsOf(item, [...at, i], out));
  else if (typeof value === "object" && value !== null) for (const [key, item] of Object.entries(value)) pathsOf(item, [...at, key], out);
  return out;
}

function getAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)[key], root);
}

/** `root` with the value at `path` replaced (undefined deletes it); the root is replaced for the empty path. */
function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown> | unknown[];
  const key = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete (parent as Record<string, unknown>)[key as string];
  } else {
    (parent as Record<string | number, unknown>)[key] = value;
  }
  return root;
}

interface BodyEdit {
  readonly kind: MutationKind;
  readonly label: string;
  readonly path?: string;
  readonly body: unknown;
}

const EXTRA_KEYS = [
  "x_fuzz_extra",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "then",
  "valueOf",
  "",
  "0",
  "with spaces",
  "id_",
  "createdAt",
];

/** One edit of a JSON body; null when the body has nothing that edit applies to. */
function editBody(rng: Rng, body: unknown, kind: MutationKind): BodyEdit | null {
  const copy = structuredClone(body);
  const paths = pathsOf(copy);
  switch (kind) {
    case "wrong-type": {
      // The root stays an object most of the time: the fields are what is under test.
      const path = paths.length > 1 && rng.chance(0.95) ? rng.pick(paths.slice(1)) : [];
      const value = wrongValue(rng, getAt(copy, path));
      return {
        kind,
        path: formatPath(path),
        label: `wrong-type ${formatPath(path)} := ${describeValue(value)}`,
        body: setAt(copy, path, value),
      };
    }
    case "odd-value": {
      const candidates = paths.filter((p) => ODD[typeOf(getAt(copy, p))] !== undefined);
      if (candidates.length === 0) return null;
      const path = rng.pick(candidates);
      const value = rng.pick(ODD[typeOf(getAt(copy, path))]!);
      return {
        kind,
        path: formatPath(path),
        label: `odd-value ${formatPath(path)} := ${describeValue(value)}`,
        body: setAt(copy, path, value),
      };
    }
    case "delete-field": {
      const candidates = paths.filter((p) => p.length > 0);
      if (candidates.length === 0) return null;
      const path = rng.pick(candidates);
      return { kind, path: formatPath(path), label: `delete-field ${formatPath(path)}`, body: setAt(copy, path, undefined) };
    }
    case "extra-field": {
      const objects = paths.filter((p) => typeOf(getAt(copy, p)) === "object");
      if (objects.length === 0) return null;
      const path = rng.pick(objects);
      const target = getAt(copy, path) as Record<string, unknown>;
      const free = EXTRA_KEYS.filter((key) => !Object.prototype.hasOwnProperty.call(target, key));
      const key = rng.pick(free.length > 0 ? free : ["x_fuzz_extra_2"]);
      const value = anyValue(rng);
      // defineProperty: `__proto__` must become a field, as JSON.parse makes it.
      Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
      return { kind, label: `extra-field ${formatPath([...path, key])} = ${describeValue(value)}`, body: copy };
    }
    case "list-items": {
      if (typeOf(copy) !== "object" || !("items" in (copy as object))) return null;
      const value = rng.pick([undefined, null, {}, 42, "items", true, { 0: {} }]);
      const label = value === undefined ? "list-items $.items deleted" : `list-items $.items := ${describeValue(value)}`;
      return { kind, path: "$.items", label, body: setAt(copy, ["items"], value) };
    }
    case "list-element": {
      const lists = paths.filter((p) => Array.isArray(getAt(copy, p)) && (getAt(copy, p) as unknown[]).length > 0);
      if (lists.length === 0) return null;
      const list = rng.pick(lists);
      const index = rng.int(0, (getAt(copy, list) as unknown[]).length - 1);
      const value = rng.pick([null, 42, "x", [], true, {}]);
      const path = [...list, index];
      return {
        kind,
        path: formatPath(path),
        label: `list-element ${formatPath(path)} := ${describeValue(value)}`,
        body: setAt(copy, path, value),
      };
    }
    default:
      throw new Error(`not a body edit: ${kind}`);
  }
}

const HTML_PAGE = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} Bad Gateway</title></head><body><center><h1>${status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n`;

/** Retry-After values no reader can use (or that ask for no wait): the call must back off and go on. */
const RETRY_AFTER_JUNK = [
  "soon",
  "-5",
  "1e9",
  "NaN",
  "Wed, 99 Foo 2026 99:99:99 GMT",
  "",
  "   ",
  "0x10",
  "1.5",
  "Infinity",
  "Thu, 01 Jan 1970 00:00:00 GMT",
  "-0",
  "12abc",
  "Monday, 32-Foo-26 25:00:00 GMT",
  "0",
  "1 2",
  "+3",
];
/** Readable, but asking for a wait longer than any timer: giving up at once (a RateLimitError) is as right as waiting. */
const RETRY_AFTER_TOO_LONG = ["99999999999999999999", "2147483648", "Fri, 31 Dec 9999 23:59:59 GMT"];

const REDIRECT_LOCATIONS = [
  "https://evil.example.com/api/v1/users/me",
  "/api/v1/users/me",
  "//evil.example.com/x",
  "http://api.stack-auth.com/api/v1/projects/current",
  "",
  "::not a url::",
  "https://api.stack-auth.com/api/v1/auth/oauth/token",
];

/** Codes that the runtime or the app methods read specially, tried on every operation. */
const SPECIAL_CODES = [
  "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
  "INVALID_ACCESS_TOKEN",
  "ACCESS_TOKEN_EXPIRED",
  "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
  "CANNOT_GET_OWN_USER_WITHOUT_USER",
  "USER_NOT_FOUND",
  "TEAM_NOT_FOUND",
  "API_KEY_NOT_VALID",
  "API_KEY_EXPIRED",
  "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
  "EMAIL_ALREADY_VERIFIED",
  "VERIFICATION_CODE_NOT_FOUND",
  "PASSWORD_TOO_SHORT",
  "USER_EMAIL_ALREADY_EXISTS",
  "EMAIL_PASSWORD_MISMATCH",
  "INVALID_ADMIN_ACCESS_TOKEN",
  "SCHEMA_ERROR",
];

const WRONG_DETAILS: readonly unknown[] = [
  "details as a string",
  42,
  [1, 2],
  null,
  true,
  { attempt_code: 5 },
  { attempt_code: null },
  { attempt_code: "" },
  {},
  { nested: { deeper: [null] } },
  { constraints: "x" },
  { user_id: 7 },
];

function codesFor(op: OperationId): string[] {
  return [...(operationKnownErrors[op] ?? []), ...SPECIAL_CODES];
}

/** Knobs for how often each kind is drawn. Body edits dominate: they are where a reader breaks. */
const WEIGHTS: Readonly<Record<MutationKind, number>> = {
  "wrong-type": 22,
  "odd-value": 8,
  "delete-field": 10,
  "extra-field": 8,
  "list-items": 4,
  "list-element": 5,
  combined: 7,
  truncated: 4,
  "whitespace-body": 2,
  "empty-body": 2,
  "html-page": 4,
  "content-type": 3,
  "known-error-mismatch": 3,
  "known-error-unknown-code": 3,
  "known-error-wrong-details": 6,
  "known-error-not-json": 2,
  "rate-limit-junk-retry-after": 3,
  redirect: 3,
  "odd-status": 2,
};

const BODY_EDITS: readonly MutationKind[] = ["wrong-type", "odd-value", "delete-field", "extra-field", "list-items", "list-element"];

/** A mutation of `base`, the valid answer of `op`, drawn from `rng`. */
export function drawMutation(rng: Rng, op: OperationId, base: BaseAnswer): Mutation {
  const hasBody = base.body !== undefined && typeOf(base.body) === "object";
  for (;;) {
    const kind = rng.weighted(WEIGHTS);
    if (!hasBody && (BODY_EDITS.includes(kind) || kind === "combined" || kind === "truncated")) continue;
    const mutation = build(rng, kind, op, base);
    if (mutation) return mutation;
  }
}

const fixed = (
  kind: MutationKind,
  label: string,
  answer: ServedAnswer,
  extra: { mustSucceed?: boolean; path?: string } = {},
): Mutation => ({
  kind,
  label,
  mustSucceed: extra.mustSucceed ?? false,
  ...(extra.path === undefined ? {} : { path: extra.path }),
  answer: () => answer,
});

const knownErrorAnswer = (status: number, header: string, body: string): ServedAnswer => ({
  status: 200,
  headers: { ...JSON_HEADERS, "x-stack-actual-status": String(status), "x-stack-known-error": header },
  body,
});

function build(rng: Rng, kind: MutationKind, op: OperationId, base: BaseAnswer): Mutation | null {
  const validText = base.body === undefined ? null : toJsonText(base.body);
  const valid: ServedAnswer = { status: base.status, headers: base.body === undefined ? {} : JSON_HEADERS, body: validText };
  switch (kind) {
    case "wrong-type":
    case "odd-value":
    case "delete-field":
    case "extra-field":
    case "list-items":
    case "list-element": {
      const edit = editBody(rng, base.body, kind);
      if (!edit) return null;
      const answer = { status: base.status, headers: JSON_HEADERS, body: toJsonText(edit.body) };
      return fixed(kind, edit.label, answer, {
        mustSucceed: kind === "extra-field",
        ...(edit.path === undefined ? {} : { path: edit.path }),
      });
    }
    case "combined": {
      let body = base.body;
      const labels: string[] = [];
      let path: string | undefined;
      const count = rng.int(2, 3);
      for (let i = 0; i < count; i++) {
        const edit = editBody(rng, body, rng.pick(BODY_EDITS));
        if (!edit) continue;
        body = edit.body;
        labels.push(edit.label);
        path ??= edit.path;
      }
      if (labels.length < 2) return null;
      return fixed(
        kind,
        `combined [${labels.join("; ")}]`,
        { status: base.status, headers: JSON_HEADERS, body: toJsonText(body) },
        path === undefined ? {} : { path },
      );
    }
    case "truncated": {
      const text = validText ?? "";
      if (text.length < 2) return null;
      const at = rng.int(1, text.length - 1);
      return fixed(kind, `truncated at ${at} of ${text.length}`, { ...valid, body: text.slice(0, at) });
    }
    case "whitespace-body": {
      const blank = rng.pick([" ", "\n", "\r\n\t  ", "   \n\n"]);
      return fixed(kind, `whitespace body ${JSON.stringify(blank)}`, { status: base.status, headers: JSON_HEADERS, body: blank });
    }
    case "empty-body": {
      const headers = rng.chance(0.5) ? JSON_HEADERS : {};
      return fixed(kind, `empty body (${headers === JSON_HEADERS ? "json" : "no"} content-type)`, {
        status: base.status,
        headers,
        body: "",
      });
    }
    case "html-page": {
      const status = rng.pick([200, 500, 502, 503, 504, 201]);
      return fixed(kind, `HTML page with HTTP ${status}`, {
        status,
        headers: { "content-type": "text/html; charset=utf-8" },
        body: HTML_PAGE(status),
      });
    }
    case "content-type": {
      const type = rng.pick([
        "text/plain",
        "text/html; charset=utf-8",
        "application/octet-stream",
        "application/xml",
        "",
        "application/json; charset=utf-16",
        "application/problem+json",
      ]);
      const body =
        validText !== null && rng.chance(0.6)
          ? validText
          : rng.pick(["OK", "<ok/>", "success", "{'single': 'quotes'}", "NaN", "undefined"]);
      const headers = type === "" ? {} : { "content-type": type };
      const bodyLabel = body === validText ? "valid JSON" : JSON.stringify(body);
      return fixed(kind, `content-type ${JSON.stringify(type)} with ${bodyLabel}`, { status: base.status, headers, body });
    }
    case "known-error-mismatch": {
      const codes = codesFor(op);
      const header = rng.pick(codes);
      const bodyCode = rng.pick([...codes.filter((c) => c !== header), undefined, 42, null, header.toLowerCase()]);
      const status = rng.pick([400, 401, 403, 404, 409, 500]);
      const body = toJsonText(bodyCode === undefined ? { error: "mismatch" } : { code: bodyCode, error: "mismatch" });
      return fixed(
        kind,
        `known-error header ${header} with body code ${describeValue(bodyCode)} (HTTP ${status})`,
        knownErrorAnswer(status, header, body),
      );
    }
    case "known-error-unknown-code": {
      const code = rng.pick(["FUZZ_UNKNOWN_CODE", "NOT_A_REAL_ERROR_9", "lowercase_code", "X", "CONSTRUCTOR", "__PROTO__", "TO_STRING"]);
      const status = rng.pick([400, 401, 404, 409, 418, 500, 200]);
      const details = rng.pick([undefined, ...WRONG_DETAILS]);
      const body = toJsonText({
        code,
        error: rng.pick(["Unknown thing happened", 42, null]),
        ...(details === undefined ? {} : { details }),
      });
      return fixed(
        kind,
        `unknown known-error code ${code} (HTTP ${status}, details ${describeValue(details)})`,
        knownErrorAnswer(status, code, body),
      );
    }
    case "known-error-wrong-details": {
      const code = rng.pick(codesFor(op));
      const details = rng.pick(WRONG_DETAILS);
      const error = rng.pick(["A message", 42, null, {}, undefined]);
      const status = rng.pick([400, 401, 403, 404, 409]);
      const body = toJsonText({ code, ...(error === undefined ? {} : { error }), details });
      return fixed(
        kind,
        `known error ${code} with details ${describeValue(details)} and error ${describeValue(error)}`,
        knownErrorAnswer(status, code, body),
      );
    }
    case "known-error-not-json": {
      const code = rng.pick(codesFor(op));
      const body = rng.pick(["", " ", HTML_PAGE(400), '{"code":', "null", "[]", '"' + code + '"']);
      return fixed(kind, `known error ${code} with body ${describeValue(body)}`, knownErrorAnswer(rng.pick([400, 401, 500]), code, body));
    }
    case "rate-limit-junk-retry-after": {
      const tooLong = rng.chance(0.15);
      const retryAfter = rng.pick(tooLong ? RETRY_AFTER_TOO_LONG : RETRY_AFTER_JUNK);
      const body = rng.pick(["", "Too Many Requests", toJsonText({ error: "rate limited" }), HTML_PAGE(429)]);
      // Some 429s clear after a few attempts: a call told nothing usable must then come through.
      const clearsAfter = rng.chance(0.5) ? rng.int(1, 4) : Number.POSITIVE_INFINITY;
      const limited: ServedAnswer = { status: 429, headers: { "retry-after": retryAfter, "content-type": "text/plain" }, body };
      const persistent = clearsAfter === Number.POSITIVE_INFINITY;
      return {
        kind,
        label: `429 Retry-After ${JSON.stringify(retryAfter)} ${persistent ? "on every attempt" : `on the first ${clearsAfter} attempt(s)`}`,
        mustSucceed: !persistent && !tooLong,
        answer: (attempt) => (attempt < clearsAfter ? limited : valid),
      };
    }
    case "redirect": {
      const status = rng.pick([301, 302, 303, 307, 308]);
      const location = rng.pick(REDIRECT_LOCATIONS);
      const body = rng.pick([null, "", HTML_PAGE(status), toJsonText(base.body)]);
      const headers: Record<string, string> =
        body === null || body === "" ? {} : { "content-type": body.startsWith("<") ? "text/html" : "application/json" };
      if (location !== "") headers["location"] = location;
      return fixed(kind, `HTTP ${status} to ${JSON.stringify(location)}`, { status, headers, body });
    }
    case "odd-status": {
      const variant = rng.pick(["204", "205", "actual-status", "508", "202", "299"] as const);
      if (variant === "204" || variant === "205")
        return fixed(kind, `HTTP ${variant} without a body`, { status: Number(variant), headers: {}, body: null });
      if (variant === "508") {
        return fixed(kind, "HTTP 508 INFINITE_LOOP_DETECTED on every attempt", {
          status: 508,
          headers: { "content-type": "text/plain" },
          body: "INFINITE_LOOP_DETECTED",
        });
      }
      if (variant === "actual-status") {
        const actual = rng.pick(["abc", "2000", "099", " 204 ", "999", "", "200.5", "-200", "301"]);
        return fixed(kind, `x-stack-actual-status ${JSON.stringify(actual)} on a valid body`, {
          ...valid,
          headers: { ...valid.headers, "x-stack-actual-status": actual },
        });
      }
      return fixed(kind, `HTTP ${variant} with the valid body`, { ...valid, status: Number(variant) });
    }
  }
}
