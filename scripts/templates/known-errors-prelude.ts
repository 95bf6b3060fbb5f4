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
  /**
   * The server's `error` text, kept as the message. Without it (or when it is empty) the message
   * is the code, then the details as JSON when there are any: `TEAM_NOT_FOUND {"team_id":"t1"}`.
   */
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

/**
 * The message of an error built without the service's text: its code, then its
 * details as JSON when it has any (`TEAM_NOT_FOUND {"team_id":"t1"}`). The
 * service's wording stays with the service, which sends it with every error it
 * answers; tests that need it have `knownErrorMessage` from stackkit/testing.
 */
function codeMessage(code: string, details: Record<string, unknown> | undefined): string {
  if (details === undefined || Object.keys(details).length === 0) return code;
  try {
    return `${code} ${JSON.stringify(details)}`;
  } catch {
    // Details that JSON cannot write (a cycle, a bigint) are still on `details`.
    return code;
  }
}

/**
 * Base of every known error of the service. Subclasses are generated, one per
 * catalogue code, and extend their parent code's class, so `instanceof` and
 * {@link isKnownError} both test families. `instanceof` also works across two
 * copies of the package: it compares codes, not prototypes.
 *
 * An error rebuilt from the service's answer keeps the service's text as its
 * `message`; one built here without it (`new KnownErrors.TeamNotFound({ team_id: "t1" })`)
 * says its code and details: `TEAM_NOT_FOUND {"team_id":"t1"}`.
 */
export class KnownError extends Error {
  /** The class's name, kept as data because bundlers may rename classes. */
  static readonly className: string = "KnownError";
  static readonly code: string | undefined = undefined;
  static readonly status: number | undefined = undefined;
  static readonly codeChain: readonly string[] = [];

  declare readonly code: string;
  readonly status: number;
  readonly details: unknown;
  readonly codeChain: readonly string[];

  constructor(details?: unknown, init: KnownErrorInit = {}) {
    const ctor = new.target as typeof KnownError;
    const safeDetails = isRecord(details) ? details : undefined;
    const code = ctor.code ?? "UNKNOWN";
    const message = typeof init.message === "string" && init.message !== "" ? init.message : codeMessage(code, safeDetails);
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = ctor.className;
    Object.defineProperty(this, "code", { value: code, enumerable: true });
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
   * new KnownErrors.TeamNotFound({ team_id: "t1" }, { message: "Team t1 not found." }).toDescriptiveJson();
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
   * JSON.stringify(new KnownErrors.TeamNotFound({ team_id: "t1" }, { message: "Team t1 not found." }));
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
 * parent, which is never sent as such), its parent code ("" for none), and its
 * class name when that is not the code in PascalCase. The service's message
 * templates are not here: see generated/known-error-messages.ts.
 */
export type KnownErrorRow = readonly [code: string, status: number, parent?: string, className?: string];

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
  for (const [code, status, parent, name = pascalCase(code)] of rows) {
    const Parent = (parent && byCode[parent]) || KnownError;
    const Class = class extends Parent {};
    const value = (v: unknown) => ({ value: v });
    Object.defineProperties(Class, {
      name: value(name),
      className: value(name),
      code: value(code),
      status: value(status || undefined),
      codeChain: value([code, ...Parent.codeChain]),
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
