// @ts-check
// Writes generated/known-errors.ts: one compact table of the catalogue (code,
// status, parent, class name) that the prelude's factory turns into one class per
// code, each extending its parent code's class; per code, an instance interface
// with the family's codes and typed details (types only); the code -> class
// registry; and createKnownError(), which rebuilds any wire body (unknown codes
// included) without throwing. The service's message templates go to
// generated/known-error-messages.ts, which the runtime does not import.

import { readFileSync } from "node:fs";

/** `EMAIL_PASSWORD_MISMATCH` -> `EmailPasswordMismatch`, as the prelude's factory derives class names. @param {string} code */
const pascalCase = (code) => code.toLowerCase().replace(/(?:^|_)([a-z0-9])/g, (_, c) => c.toUpperCase());

/**
 * The shape of a JSON schema as a TypeScript type, for the docs: `{ team_id: string; email?: string }`.
 * The catalogue's details are plain objects of strings, numbers, booleans and arrays.
 * @param {any} schema @returns {string}
 */
export function shapeOf(schema) {
  if (!schema || typeof schema !== "object") return "unknown";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").at(-1);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((/** @type {unknown} */ v) => JSON.stringify(v)).join(" | ");
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) return alternatives.map(shapeOf).join(" | ");
  const types = [schema.type ?? "unknown"].flat();
  return types
    .map((/** @type {string} */ type) => {
      if (type === "integer") return "number";
      if (type === "array") return `${/ \| /.test(shapeOf(schema.items)) ? `(${shapeOf(schema.items)})` : shapeOf(schema.items)}[]`;
      if (type !== "object") return type;
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return "Record<string, unknown>";
      const required = new Set(schema.required ?? []);
      return `{ ${properties.map(([key, value]) => `${key}${required.has(key) ? "" : "?"}: ${shapeOf(value)}`).join("; ")} }`;
    })
    .join(" | ");
}

/**
 * What the docs say of a code (its class's and its instances' TSDoc): its code, status and
 * parent, each message template, and the shape of its details, one paragraph each.
 * @param {string} code @param {any} ext @param {any} schema @param {number} descendants
 * @returns {string[]} paragraphs
 */
function docOf(code, ext, schema, descendants) {
  const templates = Array.isArray(ext.message) ? ext.message : [ext.message];
  const details = schema.properties?.details;
  return [
    ext.abstract
      ? `\`${code}\`: abstract parent; a test for it matches ${descendants} descendant codes.`
      : `\`${code}\` (HTTP ${ext.status})${ext.parent ? `, a child of \`${ext.parent}\`` : ""}.`,
    `Message: ${templates[0]}`,
    ...templates.slice(1).map((/** @type {string} */ t) => `Or, when \`details\` lacks what that needs: ${t}`),
    details ? `Details: \`${shapeOf(details)}\`${details.description ? `. ${details.description}` : ""}` : "Details: none.",
  ];
}

/** A TSDoc comment of paragraphs, indented. @param {string[]} paragraphs @param {string} indent */
const comment = (paragraphs, indent = "") =>
  [
    `${indent}/**`,
    ...paragraphs
      .flatMap((p, i) => [...(i > 0 ? [""] : []), ...p.replace(/\*\//g, "*\\/").split("\n")])
      .map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`),
    `${indent} */`,
  ].join("\n");

/**
 * @param {Map<string, { ext: any, schema: any }>} catalogue
 * @param {string} preludePath scripts/templates/known-errors-prelude.ts
 * @param {string} stamp
 */
export function emitKnownErrors(catalogue, preludePath, stamp) {
  const codes = [...catalogue.keys()];
  const parentOf = (/** @type {string} */ code) => catalogue.get(code)?.ext.parent;
  /** @param {string} code */
  const chainOf = (code) => {
    const chain = [code];
    for (let p = parentOf(code); p; p = parentOf(p)) {
      if (!catalogue.has(p)) throw new Error(`${code}: parent ${p} is not in the catalogue`);
      chain.push(p);
    }
    return chain;
  };
  /** @param {string} code codes whose chain contains it */
  const familyOf = (code) => codes.filter((c) => chainOf(c).includes(code));
  // Parents must be declared before children.
  const ordered = [...codes].sort((a, b) => chainOf(a).length - chainOf(b).length);
  const className = (/** @type {string} */ code) => catalogue.get(code)?.ext.class;
  const seen = new Set();
  for (const code of codes) {
    const name = className(code);
    if (!/^[A-Z][A-Za-z0-9]*$/.test(name ?? "")) throw new Error(`${code}: class name ${name} is not an identifier`);
    if (seen.has(name)) throw new Error(`${code}: class name ${name} is used twice`);
    seen.add(name);
  }

  const prelude = readFileSync(preludePath, "utf8").replace(/^(\/\/.*\n)+\n/, "");
  /** @type {(string | null)[]} */
  const out = [
    stamp,
    'import type { components } from "./schema.js";',
    'export { isKnownError, type KnownErrorLike } from "./known-error-guard.js";',
    prelude.trimEnd(),
    "",
  ];
  out.push(
    "// CATALOGUE",
    "",
    "/** Every code of the catalogue. Servers may send others; they become UNSUPPORTED_ERROR. */",
    `export type KnownErrorCode =\n${codes.map((c) => `  | ${JSON.stringify(c)}`).join("\n")};`,
    "",
    "/** The `details` a code carries on the wire (undefined for codes without details). */",
    `export type KnownErrorDetails<C extends KnownErrorCode> = components["schemas"][C] extends { details?: infer D } ? D : undefined;`,
    "",
  );
  // Types only: one instance interface per code, extending its parent's, with the
  // family's codes and typed details. They cost nothing at run time.
  for (const code of ordered) {
    const { ext, schema } = /** @type {{ ext: any, schema: any }} */ (catalogue.get(code));
    const name = className(code);
    const parent = ext.parent ? className(ext.parent) : "KnownError";
    const family = familyOf(code);
    const codeType = family.map((c) => JSON.stringify(c)).join(" | ");
    const detailsType = family.map((c) => `KnownErrorDetails<${JSON.stringify(c)}>`).join(" | ");
    out.push(
      comment(docOf(code, ext, schema, family.length - 1)),
      `export interface ${name} extends ${parent} {`,
      `  readonly code: ${codeType};`,
      `  readonly details: ${detailsType} | undefined;`,
      code === "UNSUPPORTED_ERROR"
        ? "  /** For a code this catalogue does not know: the `details` the server sent with it. */\n  readonly originalDetails?: unknown;"
        : null,
      "}",
      "",
    );
  }
  out.push(
    "// TABLE",
    "",
    "/**",
    " * The class of a code: `new` takes the code's details and answers its instance type",
    " * (`KnownErrorsByCode[C]`); `instanceof` tests the code's family. `typeof KnownErrors.EmailPasswordMismatch`",
    ' * is `KnownErrorClassOf<"EMAIL_PASSWORD_MISMATCH">`.',
    " */",
    "export type KnownErrorClassOf<C extends KnownErrorCode> = KnownErrorClass<KnownErrorsByCode[C], KnownErrorDetails<C>>;",
    "",
    "// [code, status (0: abstract parent), parent code, class name unless PascalCase(code)]",
    "const catalogue = /* @__PURE__ */ defineKnownErrors([",
    ...ordered.map((code) => {
      const { ext } = /** @type {{ ext: any }} */ (catalogue.get(code));
      /** @type {(string | number)[]} */
      const row = [code, ext.abstract ? 0 : ext.status];
      const name = className(code);
      if (ext.parent || name !== pascalCase(code)) row.push(ext.parent ?? "");
      if (name !== pascalCase(code)) row.push(name);
      return `  ${JSON.stringify(row)},`;
    }),
    "]);",
    "",
    "// REGISTRY",
    "",
    "/**",
    " * The class of each code, as the reference SDK names them (`KnownErrors.EmailPasswordMismatch`):",
    " * every known error of the service, with its code, HTTP status, message and the shape of its `details`.",
    " * A parent code's class is its family's: `instanceof KnownErrors.VerificationCodeError` is true of",
    " * every `VERIFICATION_ERROR` code.",
    " */",
    'export const KnownErrors = /* @__PURE__ */ classesOf(catalogue, "byName") as {',
    ...codes.flatMap((code) => {
      const { ext, schema } = /** @type {{ ext: any, schema: any }} */ (catalogue.get(code));
      return [
        comment(docOf(code, ext, schema, familyOf(code).length - 1), "  "),
        `  readonly ${className(code)}: KnownErrorClassOf<${JSON.stringify(code)}>;`,
      ];
    }),
    "};",
    "",
    '/** The instance type of each class, as the reference SDK types them (`KnownErrors["EmailPasswordMismatch"]`). */',
    "export type KnownErrors = { [K in keyof typeof KnownErrors]: InstanceType<(typeof KnownErrors)[K]> };",
    "",
    "/** A class by its name. A pure call, so that a bundler drops the named exports an app does not use. */",
    "const named = <N extends keyof typeof KnownErrors>(name: N): (typeof KnownErrors)[N] => KnownErrors[name];",
    "",
    "// Each class under its own name too (`import { EmailPasswordMismatch }`).",
    ...codes.map((code) => `export const ${className(code)} = /* @__PURE__ */ named(${JSON.stringify(className(code))});`),
    "",
    "/**",
    " * The instance type of each code's class. A parent code's class is its family's:",
    ' * `KnownErrorsByCode["VERIFICATION_ERROR"]` is VerificationCodeError, whose `code` is any of the family\'s.',
    " */",
    "export interface KnownErrorsByCode {",
    ...codes.map((code) => `  ${code}: ${className(code)};`),
    "}",
    "",
    "/**",
    " * The error class of code `C`, or the union of the classes of a union of codes:",
    " * what `isKnownError(value, C)` narrows to, and the error of a Result that returns `C`.",
    " */",
    "export type KnownErrorOf<C extends KnownErrorCode> = KnownErrorsByCode[C];",
    "",
    "/** code -> class. */",
    'export const knownErrorClasses = /* @__PURE__ */ classesOf(catalogue, "byCode") as {',
    "  readonly [C in KnownErrorCode]: KnownErrorClassOf<C>;",
    "};",
    "",
    "/** The catalogue's HTTP status of each code; undefined for abstract parents. */",
    "export const knownErrorStatus = /* @__PURE__ */ statusesOf(catalogue) as {",
    "  readonly [C in KnownErrorCode]: number | undefined;",
    "};",
    "",
    "/**",
    " * True when the catalogue knows `code`.",
    " *",
    " * @example",
    " * ```ts",
    ' * isKnownErrorCode("TEAM_NOT_FOUND"); // true',
    ' * isKnownErrorCode("SOME_FUTURE_ERROR"); // false',
    " * ```",
    " */",
    "export function isKnownErrorCode(code: unknown): code is KnownErrorCode {",
    '  return typeof code === "string" && Object.prototype.hasOwnProperty.call(knownErrorClasses, code);',
    "}",
    "",
    "/**",
    " * Rebuilds the typed error of a wire body `{code, details?, error}`. `init.status`",
    " * is the status the response arrived with; `init.message` the server's `error`",
    " * text, kept as the message (without it, the message is the code and the details'",
    " * JSON). A code the catalogue does not know becomes `KnownErrors.UnsupportedError`",
    " * keeping the original code (`details.originalErrorCode`), `originalDetails`, the",
    " * status and the text. Never throws.",
    " *",
    " * @example",
    " * ```ts",
    ' * const error = createKnownError("TEAM_NOT_FOUND", { team_id: "t1" }, { status: 404, message: "Team t1 not found." });',
    " * error instanceof KnownErrors.TeamNotFound; // true",
    ' * error.message; // "Team t1 not found."',
    ' * createKnownError("TEAM_NOT_FOUND", { team_id: "t1" }).message; // \'TEAM_NOT_FOUND {"team_id":"t1"}\'',
    " * ```",
    " */",
    "export function createKnownError(code: string, details?: unknown, init: KnownErrorInit = {}): KnownError {",
    "  if (isKnownErrorCode(code)) return new knownErrorClasses[code](details as never, init);",
    "  const error = new UnsupportedError({ originalErrorCode: code }, init);",
    '  Object.defineProperty(error, "originalDetails", { value: details, enumerable: true });',
    "  return error;",
    "}",
    "",
  );
  return out.filter((l) => l !== null).join("\n");
}

/**
 * Writes generated/known-error-messages.ts: the renderer (copied from
 * scripts/templates/known-error-messages-prelude.ts), each code's message
 * template(s) as the service words them, and knownErrorMessage(). It imports the
 * catalogue's types only; the runtime never imports it.
 * @param {Map<string, { ext: any, schema: any }>} catalogue
 * @param {string} preludePath scripts/templates/known-error-messages-prelude.ts
 * @param {string} stamp
 */
export function emitKnownErrorMessages(catalogue, preludePath, stamp) {
  const prelude = readFileSync(preludePath, "utf8").replace(/^(\/\/.*\n)+\n/, "");
  return [
    stamp,
    'import type { KnownErrorCode, KnownErrorDetails } from "./known-errors.js";',
    "",
    prelude.trimEnd(),
    "",
    "// TEMPLATES",
    "",
    "// Each code's template, or its templates in the order they are tried.",
    "const templates: { readonly [C in KnownErrorCode]: string | readonly string[] } = {",
    ...[...catalogue].map(([code, { ext }]) => {
      const message = Array.isArray(ext.message) && ext.message.length > 1 ? ext.message : [ext.message].flat()[0];
      return `  ${code}: ${JSON.stringify(message)},`;
    }),
    "};",
    "",
    "/**",
    " * The message the service sends with code `C`'s error and these `details`: the `error`",
    " * text of its answer, word for word. Known errors the runtime rebuilds from an answer keep",
    " * that text; this is for what has no answer to read it from: a mock's answer, or a test",
    " * that builds the error the service would send.",
    " *",
    " * @example",
    " * ```ts",
    ' * import { createKnownError } from "stackkit";',
    ' * import { knownErrorMessage } from "stackkit/testing";',
    " *",
    ' * knownErrorMessage("TEAM_NOT_FOUND", { team_id: "t1" }); // "Team t1 not found."',
    " * // A mock's answer, as the service words it, and the error the runtime throws for it:",
    ' * const body = { code: "TEAM_NOT_FOUND", details: { team_id: "t1" }, error: knownErrorMessage("TEAM_NOT_FOUND", { team_id: "t1" }) };',
    " * const expected = createKnownError(body.code, body.details, { status: 404, message: body.error });",
    " * ```",
    " */",
    "export function knownErrorMessage<C extends KnownErrorCode>(code: C, details?: KnownErrorDetails<C>): string {",
    "  const template = templates[code];",
    '  return renderKnownErrorMessage(typeof template === "string" ? [template] : template, details);',
    "}",
    "",
  ].join("\n");
}

/**
 * Writes generated/known-error-guard.ts: the brand and family test (copied from
 * scripts/templates/known-error-guard.ts) and isKnownError's typed overloads. It
 * imports the catalogue's types only, so testing a code never loads the classes.
 * @param {string} guardPath scripts/templates/known-error-guard.ts
 * @param {string} stamp
 */
export function emitKnownErrorGuard(guardPath, stamp) {
  const guard = readFileSync(guardPath, "utf8").replace(/^(\/\/.*\n)+\n/, "");
  return [
    stamp,
    'import type { KnownErrorCode, KnownErrorOf } from "./known-errors.js";',
    "",
    guard.trimEnd(),
    "",
    "/**",
    " * True when `value` is a known error and, if `code` is given, belongs to that",
    " * code's family (the code itself or any descendant: `ACCESS_TOKEN_EXPIRED` is an",
    " * `INVALID_ACCESS_TOKEN`); with a code, `value` narrows to that code's class and its",
    " * typed `details`. A code the catalogue does not have is a type error. Works across",
    " * package copies: it reads a brand, not the prototype.",
    " *",
    " * @example",
    " * ```ts",
    " * try {",
    " *   await user.update({ selectedTeamId: teamId });",
    " * } catch (error) {",
    ' *   if (isKnownError(error, "TEAM_NOT_FOUND")) console.warn("no team", error.details?.team_id);',
    " *   else throw error;",
    " * }",
    " * ```",
    " */",
    "export function isKnownError(value: unknown): value is KnownErrorLike;",
    "export function isKnownError<C extends KnownErrorCode>(value: unknown, code: C): value is KnownErrorOf<C>;",
    "export function isKnownError(value: unknown, code?: string): boolean {",
    "  return isInFamily(value, code);",
    "}",
    "",
  ].join("\n");
}
