// The document as one service version sees it, built from the document's own
// markers (`x-added-in` / `x-removed-in` on operations and on schema properties):
// - an operation the version does not have (added after it, or removed in or
//   before it) keeps only the service's catch-all answer, a plain-text 404
//   (the root's `StatusError`): any other answer of it is a violation;
// - a schema property the version does not have becomes `false` (and is no
//   longer required): an answer or a request carrying it is a violation, even in
//   the open response schemas;
// - a parameter or a response the version does not have (written in the
//   operation or its path item) is left out: an accepted request sending it, or
//   an answer with that status, is a violation;
// - a component schema the version does not have (a known error added later) is
//   left out of every `oneOf` that names it: an answer with that code is a
//   violation;
// - `x-until: { "<v>": overlay }` merges the overlay's keywords into the schema
//   for versions before v, `x-since: { "<v>": overlay }` for v and after: what one
//   version requires or answers more narrowly than the other.
// `validatorFor(version)` compiles one validator per version, once.
import { readFileSync } from "node:fs";
import { SERVICE_VERSIONS, type ServiceVersion } from "../../emulator/index.js";
import { createExchangeValidator, type ExchangeValidator } from "./openapi-validator.js";

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Versions compare as dotted numbers: -1, 0 or 1. */
export function compareVersions(a: string, b: string): number {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** Whether something carrying these markers exists on `version`. */
export function existsOn(node: Json, version: string): boolean {
  const added = node["x-added-in"];
  const removed = node["x-removed-in"];
  if (typeof added === "string" && compareVersions(version, added) < 0) return false;
  if (typeof removed === "string" && compareVersions(version, removed) >= 0) return false;
  return true;
}

let bundled: Json | undefined;

/** The bundled document (generated/openapi.json), both versions at once. */
export function fullDocument(): Json {
  bundled ??= JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8")) as Json;
  return bundled;
}

/** The document in `version`'s view (a copy; the document itself is left as it is). */
export function documentFor(version: ServiceVersion, document: Json = fullDocument()): Json {
  const view = structuredClone(document);
  const keepParameters = (holder: Json) => {
    if (Array.isArray(holder.parameters)) {
      holder.parameters = holder.parameters.filter((parameter) => !isObject(parameter) || existsOn(parameter, version));
    }
  };
  for (const item of Object.values(isObject(view.paths) ? view.paths : {})) {
    if (!isObject(item)) continue;
    keepParameters(item);
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || !isObject(operation)) continue;
      keepParameters(operation);
      if (isObject(operation.responses)) {
        const responses = operation.responses;
        for (const [status, response] of Object.entries(responses))
          if (isObject(response) && !existsOn(response, version)) delete responses[status];
      }
      if (existsOn(operation, version)) continue;
      operation.responses = { "404": { $ref: "#/components/responses/StatusError" } };
      delete operation.requestBody;
    }
  }
  dropProperties(view, version);
  dropSchemas(view, version);
  applyOverlays(view, version);
  return view;
}

/** Leaves the component schemas `version` does not have out of every `oneOf` (an empty one becomes `false`). */
function dropSchemas(view: Json, version: string): void {
  const schemas = isObject(view.components) && isObject(view.components.schemas) ? view.components.schemas : {};
  const gone = new Set(
    Object.entries(schemas)
      .filter(([, schema]) => isObject(schema) && !existsOn(schema, version))
      .map(([name]) => `#/components/schemas/${name}`),
  );
  if (gone.size === 0) return;
  const visit = (node: unknown, replace: (schema: false) => void): void => {
    if (Array.isArray(node)) return node.forEach((each, index) => visit(each, (schema) => (node[index] = schema)));
    if (!isObject(node)) return;
    if (Array.isArray(node.oneOf)) {
      const kept = node.oneOf.filter((branch) => !(isObject(branch) && typeof branch.$ref === "string" && gone.has(branch.$ref)));
      if (kept.length === 0) return replace(false);
      node.oneOf = kept;
    }
    for (const [name, value] of Object.entries(node)) visit(value, (schema) => (node[name] = schema));
  };
  visit(view, () => {});
}

/** Merges each `x-until` / `x-since` overlay that holds on `version` into its schema. */
function applyOverlays(node: unknown, version: string): void {
  if (Array.isArray(node)) return node.forEach((each) => applyOverlays(each, version));
  if (!isObject(node)) return;
  for (const [marker, holds] of [
    ["x-until", (from: string) => compareVersions(version, from) < 0],
    ["x-since", (from: string) => compareVersions(version, from) >= 0],
  ] as const) {
    const overlays = node[marker];
    if (!isObject(overlays)) continue;
    for (const [from, overlay] of Object.entries(overlays)) if (holds(from) && isObject(overlay)) Object.assign(node, overlay);
  }
  for (const value of Object.values(node)) applyOverlays(value, version);
}

function dropProperties(node: unknown, version: string): void {
  if (Array.isArray(node)) {
    for (const each of node) dropProperties(each, version);
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.properties)) {
    const properties = node.properties;
    const gone = Object.keys(properties).filter((name) => isObject(properties[name]) && !existsOn(properties[name], version));
    for (const name of gone) properties[name] = false;
    if (gone.length > 0 && Array.isArray(node.required)) node.required = node.required.filter((name) => !gone.includes(name as string));
  }
  for (const value of Object.values(node)) dropProperties(value, version);
}

const validators = new Map<ServiceVersion, ExchangeValidator>();

/** A validator of exchanges against `version`'s view of the document (compiled once per version). */
export function validatorFor(version: ServiceVersion): ExchangeValidator {
  let validator = validators.get(version);
  if (!validator) {
    validator = createExchangeValidator(documentFor(version));
    validators.set(version, validator);
  }
  return validator;
}

export { SERVICE_VERSIONS };
