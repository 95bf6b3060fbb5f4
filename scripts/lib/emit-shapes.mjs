// @ts-check
// Writes generated/shapes.ts: what every 2xx JSON answer and every known
// error's `details` must look like, compiled from the document's schemas into a
// compact form that runtime/http/shape.ts checks answers against. Only what a client
// can rely on is kept (types, required fields, enums, patterns, ranges);
// descriptions, formats and examples stay in the document.
//
// A shape is one of:
//   "s" string, "n" finite number, "i" integer, "b" boolean, "z" null,
//   "o" any object, "*" anything;
//   a number k: shapes[k] (a named schema, so shared ones are written once; the table
//     holds those of answers and error details, and a request body writes one only
//     request bodies use in place, so that an app's bundle does not carry it);
//   { name: shape, "name?": shape } an object with those fields (others allowed, unless
//     the key "!" is present: a closed object, additionalProperties: false);
//   ["a", item] an array; ["|", ...options] one of; ["=", ...values] one of these values;
//   ["p", source] a string matching the pattern; ["r", min, max, integer] a number in range;
//   ["@", client, server, admin] the view each access type gets (x-stack-view-by-access-type).

import { readFileSync } from "node:fs";
import { listOperations, resolveRef } from "./bundle.mjs";

const ALL_JSON_TYPES = ["array", "boolean", "null", "number", "object", "string"];

/**
 * @param {any} doc the expanded bundle
 * @param {string} stamp
 * @param {string} interpreterPath scripts/templates/shape-check.ts, appended after the tables
 */
export function emitShapes(doc, stamp, interpreterPath) {
  /** @type {unknown[]} */
  const table = [];
  /** @type {Map<string, number>} */
  const named = new Map();

  /**
   * While request bodies are compiled: the named schemas being written in place. The table
   * holds what answers and errors share (it is in every app's bundle); a schema only request
   * bodies use is written where they use it (only the emulator reads those), unless it
   * contains itself.
   * @type {Set<string> | undefined}
   */
  let inlining;

  /** @param {string} ref */
  const refShape = (ref) => {
    let index = named.get(ref);
    if (index !== undefined) return index;
    if (inlining && !inlining.has(ref)) {
      inlining.add(ref);
      try {
        return compile(resolveRef(doc, { $ref: ref }));
      } finally {
        inlining.delete(ref);
      }
    }
    index = table.length;
    named.set(ref, index);
    table.push(null);
    table[index] = compile(resolveRef(doc, { $ref: ref }));
    return index;
  };

  /** @param {any} schema @returns {unknown} */
  const compile = (schema) => {
    if (schema === undefined || schema === true || schema === null) return "*";
    if (schema.$ref) return refShape(schema.$ref);
    if (schema.const !== undefined) return ["=", schema.const];
    if (Array.isArray(schema.enum)) return ["=", ...schema.enum];
    // The parts' fields are copied into one object: a named part needs no entry of its own.
    if (Array.isArray(schema.allOf))
      return merge(
        schema.allOf.map((/** @type {any} */ part) => compile(resolveRef(doc, part))),
        schema,
      );
    const views = schema["x-stack-view-by-access-type"];
    if (views) {
      const options = schema.oneOf ?? schema.anyOf;
      return ["@", ...["client", "server", "admin"].map((type) => compile(options[views[type]]))];
    }
    if (Array.isArray(schema.oneOf ?? schema.anyOf)) return union((schema.oneOf ?? schema.anyOf).map(compile));
    const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
    if (types.length === 0) return schema.properties ? objectShape(schema) : "*";
    if (ALL_JSON_TYPES.every((t) => types.includes(t))) return "*";
    return union(types.map((/** @type {string} */ type) => typed(type, schema)));
  };

  /** @param {string} type @param {any} schema */
  const typed = (type, schema) => {
    switch (type) {
      case "string":
        return typeof schema.pattern === "string" ? ["p", schema.pattern] : "s";
      case "number":
      case "integer": {
        const integer = type === "integer";
        if (schema.minimum !== undefined || schema.maximum !== undefined) {
          return ["r", schema.minimum ?? -Number.MAX_VALUE, schema.maximum ?? Number.MAX_VALUE, integer ? 1 : 0];
        }
        return integer ? "i" : "n";
      }
      case "boolean":
        return "b";
      case "null":
        return "z";
      case "array":
        return ["a", compile(schema.items)];
      case "object":
        return schema.properties ? objectShape(schema) : "o";
      default:
        throw new Error(`shapes: unknown type ${type}`);
    }
  };

  /** @param {any} schema */
  const objectShape = (schema) => {
    const required = new Set(schema.required ?? []);
    /** @type {Record<string, unknown>} */
    const fields = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (name.endsWith("?") || name === "!") throw new Error(`shapes: property name ${name} is reserved`);
      fields[required.has(name) ? name : `${name}?`] = compile(property);
    }
    if (schema.additionalProperties === false) fields["!"] = 1;
    return fields;
  };

  /** allOf of object schemas is one object with every part's fields. @param {unknown[]} parts @param {any} schema */
  const merge = (parts, schema) => {
    /** @type {Record<string, unknown>} */
    const fields = {};
    for (const part of parts) {
      if (typeof part !== "object" || part === null || Array.isArray(part)) {
        throw new Error(`shapes: allOf of a non-object in ${JSON.stringify(schema).slice(0, 80)}`);
      }
      for (const [name, shape] of Object.entries(part)) {
        const bare = name.replace(/\?$/, "");
        // A field required by any part is required; the later part's shape is the narrower one.
        const isRequired = !name.endsWith("?") || bare in fields;
        delete fields[bare];
        delete fields[`${bare}?`];
        fields[isRequired ? bare : `${bare}?`] = shape;
      }
    }
    return fields;
  };

  /** @param {unknown[]} options */
  const union = (options) => {
    if (options.includes("*")) return "*";
    return options.length === 1 ? options[0] : ["|", ...options];
  };

  const answers = [];
  for (const { op } of listOperations(doc)) {
    const byStatus = [];
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (!/^2\d\d$/.test(status)) continue;
      const schema = resolveRef(doc, response).content?.["application/json"]?.schema;
      if (schema) byStatus.push(`${status}: ${JSON.stringify(compile(schema))}`);
    }
    answers.push(`  /* ${op.operationId} */ ${byStatus.length > 0 ? `{ ${byStatus.join(", ")} }` : "undefined"},`);
  }
  const details = [];
  for (const [code, schema] of Object.entries(doc.components?.schemas ?? {})) {
    if (!schema["x-stack-known-error"] || !schema.properties?.details) continue;
    details.push(`  ${code}: ${JSON.stringify(compile(schema.properties.details))},`);
  }
  const requests = [];
  inlining = new Set();
  for (const { op } of listOperations(doc)) {
    const content = op.requestBody?.content ?? {};
    const schema = content["application/json"]?.schema ?? content["application/x-www-form-urlencoded"]?.schema;
    if (schema) requests.push(`  ${op.operationId}: ${JSON.stringify(compile(schema))},`);
  }
  return [
    stamp,
    'import type { OperationId } from "./operations.js";',
    "",
    "/** A compiled schema; see scripts/lib/emit-shapes.mjs for the notation. */",
    "export type Shape = string | number | readonly unknown[] | { readonly [field: string]: Shape };",
    "",
    "/** The named schemas that answers and known errors' details use, by index. */",
    `export const shapes: readonly Shape[] = ${JSON.stringify(table)};`,
    "",
    "/**",
    " * What each operation answers, by 2xx status (undefined: no JSON), in the document's order,",
    " * which is the order of the operations in `operationRoutes` (generated/operations.ts): the",
    " * operationIds are written there once, not again here.",
    " */",
    "export const answerShapes: readonly ({ readonly [status: number]: Shape } | undefined)[] = [",
    ...answers,
    "];",
    "",
    "/** What each operation takes as its request body (JSON or form); closed objects refuse unknown fields. */",
    "export const requestShapes: { readonly [id in OperationId]?: Shape } = {",
    ...requests,
    "};",
    "",
    "/** What the `details` of each known error hold. */",
    "export const knownErrorDetailShapes: { readonly [code: string]: Shape } = {",
    ...details,
    "};",
    "",
    readFileSync(interpreterPath, "utf8")
      .replace(/^(\/\/.*\n)+\n/, "")
      .replace(/\/\/ --- template only[\s\S]*?\/\/ --- end ---\n\n/, "")
      .trimEnd(),
    "",
  ].join("\n");
}
