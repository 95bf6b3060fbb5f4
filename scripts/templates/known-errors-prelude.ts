// The part of generated/known-errors.ts that does not depend on the catalogue:
// the base class and the factory that makes one class per row of the catalogue's
// table. scripts/generate.mjs copies it verbatim above the generated table and
// types; it lives here as real TypeScript so that it is type-checked and read like
// any source. BRAND and isInFamily come from generated/known-error-guard.ts
// (scripts/templates/known-error-guard.ts).

import { BRAND, isInFamily } from "./known-error-guard.js";

/** How a known error was received, for its constructor: the status and the server's text, and a cause. */
export interface KnownErrorInit {
  /** The HTTP status the error arrived with; defaults to the code's catalogue status. */
  readonly status?: number | undefined;
  /** The server's `error` text. Kept as the message when present. */
  readonly message?: string | undefined;
  readonly cause?: unknown;
}

/** What `JSON.stringify` writes of a known error (its `toJSON()`). */
export interface KnownErrorJSON {
  readonly name: string;
  readonly code: string;
  readonly status: number;
  readonly message: string;
  readonly details: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Filter = (value: unknown) => string | undefined;

// Each filter answers undefined when the value cannot be shown, so that the
// template that needs it is skipped instead of printing "undefined" or throwing.
const filters: Record<string, Filter> = {
  raw: (v) => (v === undefined || v === null ? undefined : typeof v === "string" ? v : JSON.stringify(v)),
  json: (v) => (v === undefined || v === null ? undefined : JSON.stringify(v)),
  iso: (v) => {
    if (typeof v !== "number" || !Number.isFinite(v)) return undefined;
    const date = new Date(v);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  },
  quoted_or: (v) => (Array.isArray(v) && v.length > 0 ? v.map((x) => `'${String(x)}'`).join(" or ") : undefined),
  // The service indents the blocks (and every line in them) by two spaces.
  overloads: (v) =>
    Array.isArray(v)
      ? "\n\n  " +
        v
          .map((e, i) => `Overload ${i + 1}: ${JSON.stringify(e, undefined, 2)}`)
          .join("\n\n")
          .replaceAll("\n", "\n  ")
      : undefined,
};

// {key}, {key|filter}, and {key=value}: a condition that shows nothing and holds when the
// value, as text, is `value` (`{would_work_if_email_was_verified=true}`, `{context=null}`).
// A key may name a field of a field: {restricted_reason.type}.
const PLACEHOLDER = /\{([\w.]+)(?:\|(\w+)|=([\w-]+))?\}/g;

/** The value at a dotted path of the details; undefined when a step is missing. */
function valueAt(details: Record<string, unknown>, path: string): unknown {
  let value: unknown = details;
  for (const key of path.split(".")) value = isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  return value;
}

function renderTemplate(template: string, details: Record<string, unknown>): string | undefined {
  let complete = true;
  const text = template.replace(PLACEHOLDER, (_, key: string, filter: string | undefined, expected: string | undefined) => {
    const value = valueAt(details, key);
    if (expected !== undefined) {
      if (value === undefined || (value === null ? "null" : String(value)) !== expected) complete = false;
      return "";
    }
    const shown = (filters[filter ?? "raw"] ?? filters.raw!)(value);
    if (shown === undefined) complete = false;
    return shown ?? "";
  });
  return complete ? text : undefined;
}

/**
 * Builds a message from the first template whose placeholders `details` can
 * fill. When none fits, the last template is used with the gaps marked.
 */
export function renderKnownErrorMessage(templates: readonly string[], details: unknown): string {
  const values = isRecord(details) ? details : {};
  for (const template of templates) {
    const text = renderTemplate(template, values);
    if (text !== undefined) return text;
  }
  const last = templates[templates.length - 1] ?? "";
  return last.replace(PLACEHOLDER, (_, key: string, _filter: unknown, expected: string | undefined) =>
    expected === undefined ? `<${key} unknown>` : "",
  );
}

/**
 * Base of every known error of the service. Subclasses are generated, one per
 * catalogue code, and extend their parent code's class, so `instanceof` and
 * {@link isKnownError} both test families. `instanceof` also works across two
 * copies of the package: it compares codes, not prototypes.
 */
export class KnownError extends Error {
  /** The class's name, kept as data because bundlers may rename classes. */
  static readonly className: string = "KnownError";
  static readonly code: string | undefined = undefined;
  static readonly status: number | undefined = undefined;
  static readonly codeChain: readonly string[] = [];
  static readonly messageTemplates: readonly string[] = ["Unknown error."];

  declare readonly code: string;
  readonly status: number;
  readonly details: unknown;
  readonly codeChain: readonly string[];

  constructor(details?: unknown, init: KnownErrorInit = {}) {
    const ctor = new.target as typeof KnownError;
    const safeDetails = isRecord(details) ? details : undefined;
    const message =
      typeof init.message === "string" && init.message !== "" ? init.message : renderKnownErrorMessage(ctor.messageTemplates, safeDetails);
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = ctor.className;
    Object.defineProperty(this, "code", { value: ctor.code ?? "UNKNOWN", enumerable: true });
    this.status = init.status ?? ctor.status ?? 500;
    this.details = safeDetails;
    this.codeChain = ctor.codeChain;
    Object.defineProperty(this, BRAND, { value: true });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return isInFamily(value, this.code);
  }

  // THE REFERENCE SDK'S NAMES
  // Apps written for @stackframe/js read these; each is another name for a field above.

  /** The code, as the reference SDK names it (`KnownErrors.EmailPasswordMismatch.errorCode`). */
  static get errorCode(): string | undefined {
    return this.code;
  }

  /**
   * True when `value` is this code's error or a descendant's (the reference's `isInstance`).
   *
   * @example
   * ```ts
   * if (KnownErrors.VerificationCodeError.isInstance(error)) showCodeProblem(error.message);
   * ```
   */
  static isInstance(value: unknown): boolean {
    return this[Symbol.hasInstance](value);
  }

  /** The code (`"EMAIL_PASSWORD_MISMATCH"`), as the reference SDK names it. */
  get errorCode(): this["code"] {
    return this.code;
  }

  /** The HTTP status, as the reference SDK names it. */
  get statusCode(): number {
    return this.status;
  }

  /** The message, as the reference SDK names it. */
  get humanReadableMessage(): string {
    return this.message;
  }

  /**
   * The wire body of this error, `{ code, details?, error }`, as the reference SDK builds it.
   *
   * @example
   * ```ts
   * new KnownErrors.TeamNotFound({ team_id: "t1" }).toDescriptiveJson();
   * // { code: "TEAM_NOT_FOUND", details: { team_id: "t1" }, error: "Team t1 not found." }
   * ```
   */
  toDescriptiveJson(): { code: string; details?: Record<string, unknown>; error: string } {
    const details = this.details as Record<string, unknown> | undefined;
    return { code: this.code, ...(details ? { details } : {}), error: this.message };
  }

  /**
   * What `JSON.stringify` writes of the error: `{ name, code, status, message, details }`, for logs.
   *
   * @example
   * ```ts
   * JSON.stringify(new KnownErrors.TeamNotFound({ team_id: "t1" }));
   * // {"name":"TeamNotFound","code":"TEAM_NOT_FOUND","status":404,"message":"Team t1 not found.","details":{"team_id":"t1"}}
   * ```
   */
  toJSON(): KnownErrorJSON {
    return { name: this.name, code: this.code, status: this.status, message: this.message, details: this.details };
  }
}

/**
 * A known error's class as code sees it: `new KnownErrors.X(details?, init?)`,
 * `instanceof` (families, other package copies), the statics of {@link KnownError}.
 * The generated file gives each code its instance interface `E` and details `D`.
 */
export interface KnownErrorClass<E extends KnownError, D> extends Omit<typeof KnownError, "prototype"> {
  new (details?: D, init?: KnownErrorInit): E;
  readonly prototype: E;
  // Restated from KnownError's static getter, whose comment does not survive the Omit above in the docs.
  /** The code, as the reference SDK names it (`KnownErrors.EmailPasswordMismatch.errorCode`). */
  readonly errorCode: string | undefined;
}

/**
 * One row of the catalogue's table: the code, its HTTP status (0 for an abstract
 * parent, which is never sent as such), its message template(s), its parent code
 * ("" for none), and its class name when that is not the code in PascalCase.
 */
export type KnownErrorRow = readonly [
  code: string,
  status: number,
  message: string | readonly string[],
  parent?: string,
  className?: string,
];

/** `EMAIL_PASSWORD_MISMATCH` -> `EmailPasswordMismatch`. */
function pascalCase(code: string): string {
  return code.toLowerCase().replace(/(?:^|_)([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Makes one class per row, each extending its parent code's class (rows list
 * parents first). Answers the classes by code and by class name. The classes are
 * plain subclasses: every behaviour lives in {@link KnownError} and reads the
 * statics set here.
 */
export function defineKnownErrors(rows: readonly KnownErrorRow[]): KnownErrorCatalogue {
  const byCode: Record<string, typeof KnownError> = {};
  const byName: Record<string, typeof KnownError> = {};
  for (const [code, status, message, parent, name = pascalCase(code)] of rows) {
    const Parent = (parent && byCode[parent]) || KnownError;
    const Class = class extends Parent {};
    const value = (v: unknown) => ({ value: v });
    Object.defineProperties(Class, {
      name: value(name),
      className: value(name),
      code: value(code),
      status: value(status || undefined),
      codeChain: value([code, ...Parent.codeChain]),
      messageTemplates: value(typeof message === "string" ? [message] : message),
    });
    byCode[code] = byName[name] = Class;
  }
  return { byCode, byName };
}

/** The classes {@link defineKnownErrors} made, by code and by class name. */
export interface KnownErrorCatalogue {
  readonly byCode: Record<string, typeof KnownError>;
  readonly byName: Record<string, typeof KnownError>;
}

/**
 * The catalogue's classes by code or by name. A pure call (as the catalogue's own
 * is), so that a bundler drops the catalogue from an app that uses none of it.
 */
export function classesOf(catalogue: KnownErrorCatalogue, key: keyof KnownErrorCatalogue): Record<string, typeof KnownError> {
  return catalogue[key];
}

/** The catalogue's HTTP status of each code (undefined for abstract parents); a pure call, as above. */
export function statusesOf(catalogue: KnownErrorCatalogue): Record<string, number | undefined> {
  return Object.fromEntries(Object.entries(catalogue.byCode).map(([code, Class]) => [code, Class.status]));
}
