// Checks one HTTP exchange (a request and the service's answer) against the bundled
// OpenAPI document: the operation exists, its parameters and JSON body fit their
// schemas, the status is documented, the answer's body fits that status's schema, and
// a known error's `x-stack-known-error` header equals `body.code`. A plain-text answer
// (a status error of the service) is checked against the status's `text/plain` media
// type; an answer carrying `x-stack-known-error` is always read as JSON and checked
// against its code's schema, whatever else the status documents. Used by the contract
// suite over recorded exchanges, and meant for any other source of exchanges (a local
// emulator of the service), so it takes the document as an argument and compiles each
// schema once.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";

export interface RecordedRequest {
  readonly method: string;
  /** Relative to the API root (`/users/me`); a leading `/api/v1` and a query string are accepted too. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  /** Header names in any case. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The parsed JSON body (or form fields); absent when none was sent. */
  readonly body?: unknown;
}

export interface RecordedResponse {
  /** The real status. A raw override-error-status answer (HTTP 200 with `x-stack-actual-status`) is accepted too. */
  readonly status: number;
  /** Absent when the headers were not recorded; then header rules are not checked. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The parsed JSON body, or the text of a non-JSON body; absent when it was not recorded. */
  readonly body?: unknown;
}

export interface Exchange {
  readonly source?: string;
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
}

export interface Violation {
  /** A JSON pointer into the exchange, e.g. `/response/body/items/0/id`. */
  readonly path: string;
  readonly message: string;
}

export interface MatchedOperation {
  readonly operationId: string;
  readonly method: string;
  /** The document's path template, e.g. `/users/{user_id}`. */
  readonly template: string;
  readonly pathParams: Readonly<Record<string, string>>;
}

export interface ValidatorOptions {
  /**
   * When a request the document forbids is also refused by the service (4xx/5xx), the two agree,
   * so by default request violations count only for accepted requests (status below 400).
   * `"always"` reports them whatever the answer, to check a client's requests alone.
   */
  readonly requestViolations?: "when-accepted" | "always";
}

export interface ExchangeValidator {
  validate(exchange: Exchange): Violation[];
  findOperation(method: string, path: string): MatchedOperation | undefined;
}

type Json = Record<string, unknown>;

interface Located {
  readonly node: Json;
  readonly pointer: string;
}

interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schemaPointer: string | undefined;
  readonly schema: Json | undefined;
}

interface Route {
  readonly method: string;
  readonly template: string;
  readonly segments: readonly string[];
  readonly literalScore: readonly number[];
  readonly operation: Json;
  readonly pointer: string;
  readonly parameters: readonly Parameter[];
}

const DOCUMENT_ID = "urn:stackkit:openapi";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const OVERRIDE_REQUEST_HEADER = "x-stack-override-error-status";
const ACTUAL_STATUS_HEADER = "x-stack-actual-status";
const KNOWN_ERROR_HEADER = "x-stack-known-error";

const escapeToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");
const unescapeToken = (token: string) => token.replace(/~1/g, "/").replace(/~0/g, "~");
const child = (pointer: string, ...tokens: (string | number)[]) =>
  tokens.reduce<string>((at, token) => `${at}/${escapeToken(String(token))}`, pointer);
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const lowerKeys = (record: Readonly<Record<string, string>> | undefined) =>
  record ? Object.fromEntries(Object.entries(record).map(([key, value]) => [key.toLowerCase(), value])) : undefined;
const mediaTypeOf = (contentType: string) => contentType.split(";")[0]!.trim().toLowerCase();

export function createExchangeValidator(document: object, options: ValidatorOptions = {}): ExchangeValidator {
  const doc = document as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  ajvFormats.default(ajv);
  ajv.addSchema(doc, DOCUMENT_ID, undefined, false);
  const validators = new Map<string, ValidateFunction>();
  const basePath = new URL(String((doc.servers as Json[] | undefined)?.[0]?.url ?? "http://localhost/")).pathname.replace(/\/$/, "");

  function nodeAt(pointer: string): unknown {
    return pointer
      .split("/")
      .slice(1)
      .map(unescapeToken)
      .reduce<unknown>((at, token) => (isObject(at) || Array.isArray(at) ? (at as Json)[token] : undefined), doc);
  }

  /** Follows local `$ref`s, keeping the pointer of the node finally reached. */
  function locate(pointer: string): Located {
    let at = pointer;
    for (let hops = 0; hops < 32; hops++) {
      const node = nodeAt(at);
      if (!isObject(node)) throw new Error(`the document has nothing at ${at}`);
      const ref = node.$ref;
      if (typeof ref !== "string") return { node, pointer: at };
      if (!ref.startsWith("#/")) throw new Error(`only local references are supported: ${ref}`);
      at = ref.slice(1);
    }
    throw new Error(`reference cycle at ${pointer}`);
  }

  function validatorFor(schemaPointer: string): ValidateFunction {
    let validate = validators.get(schemaPointer);
    if (!validate) {
      const fragment = schemaPointer
        .split("/")
        .map((token) => encodeURIComponent(token))
        .join("/");
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}#${fragment}` });
      validators.set(schemaPointer, validate);
    }
    return validate;
  }

  function parametersOf(pathPointer: string, operationPointer: string): Parameter[] {
    const byKey = new Map<string, Parameter>();
    for (const owner of [pathPointer, operationPointer]) {
      const list = nodeAt(child(owner, "parameters"));
      if (!Array.isArray(list)) continue;
      list.forEach((_, index) => {
        const { node, pointer } = locate(child(owner, "parameters", index));
        const schema = isObject(node.schema) ? node.schema : undefined;
        const parameter: Parameter = {
          name: String(node.name),
          in: String(node.in),
          required: node.required === true,
          schemaPointer: schema ? child(pointer, "schema") : undefined,
          schema,
        };
        byKey.set(`${parameter.in}:${parameter.in === "header" ? parameter.name.toLowerCase() : parameter.name}`, parameter);
      });
    }
    return [...byKey.values()];
  }

  const routes: Route[] = [];
  for (const [template, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const pathPointer = child("/paths", template);
    for (const method of METHODS) {
      if (!isObject(item[method])) continue;
      const segments = template.split("/").filter(Boolean);
      routes.push({
        method: method.toUpperCase(),
        template,
        segments,
        literalScore: segments.map((segment) => (segment.startsWith("{") ? 0 : 1)),
        operation: item[method] as Json,
        pointer: child(pathPointer, method),
        parameters: parametersOf(pathPointer, child(pathPointer, method)),
      });
    }
  }

  function splitPath(rawPath: string): { path: string; query: URLSearchParams } {
    const [pathPart = "", queryPart = ""] = rawPath.split("?", 2);
    let path = pathPart.replace(/\/+$/, "") || "/";
    if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || "/";
    return { path, query: new URLSearchParams(queryPart) };
  }

  function matchRoute(method: string, path: string): { route: Route; pathParams: Record<string, string> } | undefined {
    const segments = path.split("/").filter(Boolean);
    let best: { route: Route; pathParams: Record<string, string> } | undefined;
    for (const route of routes) {
      if (route.method !== method.toUpperCase() || route.segments.length !== segments.length) continue;
      const pathParams: Record<string, string> = {};
      const fits = route.segments.every((segment, index) => {
        const actual = segments[index]!;
        if (segment.startsWith("{") && segment.endsWith("}")) {
          pathParams[segment.slice(1, -1)] = decodeSegment(actual);
          return true;
        }
        return segment === actual;
      });
      // A literal segment (`/auth/sessions/current`) wins over a template (`/auth/sessions/{session_id}`).
      if (fits && (!best || compareScores(route.literalScore, best.route.literalScore) > 0)) best = { route, pathParams };
    }
    return best;
  }

  function findOperation(method: string, rawPath: string): MatchedOperation | undefined {
    const match = matchRoute(method, splitPath(rawPath).path);
    if (!match) return undefined;
    return {
      operationId: String(match.route.operation.operationId ?? `${match.route.method} ${match.route.template}`),
      method: match.route.method,
      template: match.route.template,
      pathParams: match.pathParams,
    };
  }

  function schemaViolations(schemaPointer: string, value: unknown, at: string): Violation[] {
    const validate = validatorFor(schemaPointer);
    if (validate(value)) return [];
    const errors = validate.errors ?? [];
    // A failed `anyOf`/`oneOf` at the top reports every alternative's faults at once; the
    // alternative with the fewest faults is the one the answer meant, so report only its faults.
    const { node, pointer } = locate(schemaPointer);
    const keyword = Array.isArray(node.oneOf) ? "oneOf" : Array.isArray(node.anyOf) ? "anyOf" : undefined;
    if (keyword) {
      const alternatives = (node[keyword] as unknown[]).map((_, index) => {
        const alternative = validatorFor(child(pointer, keyword, index));
        return alternative(value) ? [] : pruneAlternatives(alternative.errors ?? []);
      });
      if (alternatives.every((faults) => faults.length > 0)) {
        const closest = alternatives.reduce((best, faults) => (faults.length < best.length ? faults : best));
        return closest.map((error) => describeError(error, at));
      }
    }
    return pruneAlternatives(errors).map((error) => describeError(error, at));
  }

  function checkParameters(
    route: Route,
    pathParams: Record<string, string>,
    request: RecordedRequest,
    query: URLSearchParams,
  ): Violation[] {
    const violations: Violation[] = [];
    const queryValues = new Map<string, string[]>();
    for (const [name, value] of query) queryValues.set(name, [...(queryValues.get(name) ?? []), value]);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      queryValues.set(name, [...(queryValues.get(name) ?? []), ...(typeof value === "string" ? [value] : value)]);
    }
    const headers = lowerKeys(request.headers) ?? {};
    const declaredQuery = new Set<string>();
    for (const parameter of route.parameters) {
      let raw: string | string[] | undefined;
      let at: string;
      if (parameter.in === "path") {
        raw = pathParams[parameter.name];
        at = child("/request/path", parameter.name);
      } else if (parameter.in === "query") {
        declaredQuery.add(parameter.name);
        const values = queryValues.get(parameter.name);
        raw = values === undefined ? undefined : parameter.schema?.type === "array" ? values : values[values.length - 1];
        at = child("/request/query", parameter.name);
      } else if (parameter.in === "header") {
        raw = headers[parameter.name.toLowerCase()];
        at = child("/request/headers", parameter.name.toLowerCase());
      } else {
        continue;
      }
      if (raw === undefined) {
        if (parameter.required)
          violations.push({ path: at, message: `the required ${parameter.in} parameter ${parameter.name} is missing` });
        continue;
      }
      if (parameter.schemaPointer) violations.push(...schemaViolations(parameter.schemaPointer, coerce(raw, parameter.schema), at));
    }
    for (const name of queryValues.keys()) {
      if (!declaredQuery.has(name)) {
        violations.push({
          path: child("/request/query", name),
          message: `the query parameter ${name} is not documented for this operation`,
        });
      }
    }
    return violations;
  }

  function checkRequestBody(route: Route, request: RecordedRequest): Violation[] {
    const hasBody = request.body !== undefined;
    const requestBodyNode = route.operation.requestBody;
    if (!isObject(requestBodyNode)) {
      // An empty JSON object carries nothing; clients send `{}` to some calls without a body.
      const empty = isObject(request.body) && Object.keys(request.body).length === 0;
      return hasBody && !empty ? [{ path: "/request/body", message: "the operation documents no request body" }] : [];
    }
    const { node: requestBody, pointer } = locate(child(route.pointer, "requestBody"));
    if (!hasBody) {
      return requestBody.required === true ? [{ path: "/request/body", message: "the request body is required" }] : [];
    }
    const contentType = lowerKeys(request.headers)?.["content-type"];
    const mediaType = contentType ? mediaTypeOf(contentType) : "application/json";
    const content = isObject(requestBody.content) ? requestBody.content : {};
    if (!isObject(content[mediaType])) {
      return [
        {
          path: "/request/headers/content-type",
          message: `the request content type ${mediaType} is not documented (documented: ${Object.keys(content).join(", ")})`,
        },
      ];
    }
    const media = content[mediaType] as Json;
    return isObject(media.schema) ? schemaViolations(child(pointer, "content", mediaType, "schema"), request.body, "/request/body") : [];
  }

  function checkResponse(route: Route, exchange: Exchange, status: number): Violation[] {
    const { response } = exchange;
    const responses = isObject(route.operation.responses) ? route.operation.responses : {};
    const key = [String(status), `${String(status)[0]}XX`, "default"].find((candidate) => isObject(responses[candidate]));
    if (key === undefined) {
      return [
        {
          path: "/response/status",
          message: `status ${status} is not documented for ${String(route.operation.operationId)} (documented: ${Object.keys(responses).join(", ")})`,
        },
      ];
    }
    const { node: documented, pointer } = locate(child(route.pointer, "responses", key));
    const violations: Violation[] = [];
    const headers = lowerKeys(response.headers);
    const documentedHeaders = isObject(documented.headers) ? documented.headers : {};
    for (const name of Object.keys(documentedHeaders)) {
      const lower = name.toLowerCase();
      if (lower === KNOWN_ERROR_HEADER || headers?.[lower] === undefined) continue;
      const { node: header, pointer: headerPointer } = locate(child(pointer, "headers", name));
      if (isObject(header.schema)) {
        violations.push(
          ...schemaViolations(child(headerPointer, "schema"), coerce(headers[lower]!, header.schema), child("/response/headers", lower)),
        );
      }
    }
    violations.push(...checkKnownErrorHeader(response, headers, documentedHeaders));
    if (!("body" in response) || response.body === undefined) return violations;
    violations.push(...checkResponseBody(route, status, documented, pointer, response.body, headers));
    return violations;
  }

  function checkKnownErrorHeader(
    response: RecordedResponse,
    headers: Record<string, string> | undefined,
    documentedHeaders: Json,
  ): Violation[] {
    const code = isObject(response.body) && typeof response.body.code === "string" ? response.body.code : undefined;
    const header = headers?.[KNOWN_ERROR_HEADER];
    const at = `/response/headers/${KNOWN_ERROR_HEADER}`;
    if (header !== undefined) {
      return header === code ? [] : [{ path: at, message: `${KNOWN_ERROR_HEADER} is ${header} but body.code is ${code ?? "absent"}` }];
    }
    // The header is optional in the document only because a plain-text status error shares
    // the status; a JSON known error never comes without it.
    const declared = Object.keys(documentedHeaders).some((name) => name.toLowerCase() === KNOWN_ERROR_HEADER);
    return code !== undefined && headers !== undefined && declared
      ? [{ path: at, message: `the ${KNOWN_ERROR_HEADER} header is missing for the known error ${code}` }]
      : [];
  }

  function checkResponseBody(
    route: Route,
    status: number,
    documented: Json,
    pointer: string,
    body: unknown,
    headers: Record<string, string> | undefined,
  ): Violation[] {
    const content = isObject(documented.content) ? documented.content : {};
    const mediaTypes = Object.keys(content);
    const recordedType = headers?.["content-type"];
    const knownError = headers?.[KNOWN_ERROR_HEADER] !== undefined;
    if (knownError && !isObject(body)) {
      return [{ path: "/response/body", message: `the answer carries ${KNOWN_ERROR_HEADER} but its body is not a JSON object` }];
    }
    // Recordings keep a text body as a JSON string and a JSON body parsed; a known error is JSON.
    const mediaType = knownError
      ? "application/json"
      : recordedType
        ? mediaTypeOf(recordedType)
        : typeof body === "string"
          ? "text/plain"
          : "application/json";
    if (mediaTypes.length === 0) {
      const empty = body === "" || (isObject(body) && Object.keys(body).length === 0);
      return empty
        ? []
        : [{ path: "/response/body", message: `status ${status} of ${String(route.operation.operationId)} documents no body` }];
    }
    const documentedType = mediaTypes.find((candidate) => {
      const [type, subtype] = candidate.toLowerCase().split("/");
      const [actualType] = mediaType.split("/");
      return candidate.toLowerCase() === mediaType || (type === actualType && subtype === "*") || candidate === "*/*";
    });
    if (documentedType === undefined) {
      return [
        {
          path: "/response/body",
          message: `the body is ${mediaType} but status ${status} of ${String(route.operation.operationId)} documents only ${mediaTypes.join(", ")}`,
        },
      ];
    }
    const media = content[documentedType] as Json;
    if (!isObject(media.schema)) return [];
    const schemaPointer = knownErrorBranch(child(pointer, "content", documentedType, "schema"), body);
    if (typeof schemaPointer !== "string") {
      return [
        {
          path: "/response/body/code",
          message: `the known error ${schemaPointer.code} is not documented for status ${status} of ${String(route.operation.operationId)}`,
        },
      ];
    }
    return schemaViolations(schemaPointer, body, "/response/body");
  }

  /**
   * Error answers are a `oneOf` over one schema per code. Validating against the branch the
   * body's `code` names reports that branch's faults instead of every branch's mismatch.
   */
  function knownErrorBranch(schemaPointer: string, body: unknown): string | { code: string } {
    const { node: schema, pointer } = locate(schemaPointer);
    if (!Array.isArray(schema.oneOf) || !isObject(body) || typeof body.code !== "string") return schemaPointer;
    const branches = schema.oneOf.map((_, index) => {
      const branch = locate(child(pointer, "oneOf", index));
      const properties = isObject(branch.node.properties) ? branch.node.properties : {};
      const code = isObject(properties.code) ? properties.code.const : undefined;
      return { code, pointer: branch.pointer };
    });
    if (!branches.every((branch) => typeof branch.code === "string")) return schemaPointer;
    return branches.find((branch) => branch.code === body.code)?.pointer ?? { code: body.code };
  }

  function validate(exchange: Exchange): Violation[] {
    const { request, response } = exchange;
    const { path, query } = splitPath(request.path);
    const match = matchRoute(request.method, path);
    if (!match) {
      const methods = [...new Set(routes.filter((route) => matchRoute(route.method, path)).map((route) => route.method))].sort();
      return [
        {
          path: "/request",
          message: methods.length
            ? `${request.method.toUpperCase()} is not documented for ${path} (documented: ${methods.join(", ")})`
            : `no operation of the document matches ${request.method.toUpperCase()} ${path}`,
        },
      ];
    }
    const { route, pathParams } = match;
    const violations: Violation[] = [];
    const status = effectiveStatus(request, response, violations);
    const requestViolations = [...checkParameters(route, pathParams, request, query), ...checkRequestBody(route, request)];
    if (options.requestViolations === "always" || status < 400) violations.push(...requestViolations);
    violations.push(...checkResponse(route, exchange, status));
    return dedupe(violations);
  }

  return { validate, findOperation };
}

/** The status the service meant: with override-error-status, errors travel as HTTP 200 plus `x-stack-actual-status`. */
function effectiveStatus(request: RecordedRequest, response: RecordedResponse, violations: Violation[]): number {
  const headers = lowerKeys(response.headers);
  const actual = headers?.[ACTUAL_STATUS_HEADER];
  if (actual === undefined) return response.status;
  const at = `/response/headers/${ACTUAL_STATUS_HEADER}`;
  if (!/^[1-5][0-9]{2}$/.test(actual)) {
    violations.push({ path: at, message: `${ACTUAL_STATUS_HEADER} must be a three-digit status, got ${JSON.stringify(actual)}` });
    return response.status;
  }
  if (lowerKeys(request.headers)?.[OVERRIDE_REQUEST_HEADER] === undefined) {
    violations.push({ path: at, message: `${ACTUAL_STATUS_HEADER} answers a request without ${OVERRIDE_REQUEST_HEADER}` });
  }
  const status = Number(actual);
  if (response.status !== 200 && response.status !== status) {
    violations.push({
      path: "/response/status",
      message: `with ${ACTUAL_STATUS_HEADER} ${actual} the HTTP status must be 200 or ${actual}, got ${response.status}`,
    });
  }
  return status;
}

/** A malformed escape is kept as sent rather than failing the whole check. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Query and header values are strings on the wire; read them as the schema's type before validating. */
function coerce(raw: string | string[], schema: Json | undefined): unknown {
  if (Array.isArray(raw)) {
    const items = isObject(schema?.items) ? (schema.items as Json) : undefined;
    return raw.map((value) => coerce(value, items));
  }
  const types = Array.isArray(schema?.type) ? (schema.type as string[]) : [schema?.type];
  if ((types.includes("integer") || types.includes("number")) && raw.trim() !== "" && !Number.isNaN(Number(raw))) return Number(raw);
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  return raw;
}

function describeError(error: ErrorObject, at: string): Violation {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "required") {
    return { path: `${at}${error.instancePath}/${escapeToken(String(params.missingProperty))}`, message: "is required" };
  }
  if (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") {
    const property = String(params.additionalProperty ?? params.unevaluatedProperty);
    return { path: `${at}${error.instancePath}/${escapeToken(property)}`, message: "is not allowed (the schema is closed)" };
  }
  const detail =
    error.keyword === "enum" || error.keyword === "const" ? ` ${JSON.stringify(params.allowedValues ?? params.allowedValue)}` : "";
  return { path: `${at}${error.instancePath}`, message: `${error.message ?? error.keyword}${detail}` };
}

/**
 * Inside a nested `oneOf`/`anyOf` (a nullable object, say), the faults found deeper in the
 * value show which alternative was meant; the summary fault and the other alternatives'
 * type mismatches at the same place only repeat that the value did not fit.
 */
function pruneAlternatives(errors: readonly ErrorObject[]): ErrorObject[] {
  const target = (error: ErrorObject) => {
    const params = error.params as Record<string, unknown>;
    const property = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    return property === undefined ? error.instancePath : `${error.instancePath}/${escapeToken(String(property))}`;
  };
  const targets = errors.map(target);
  return errors.filter((error) => {
    const summary = error.keyword === "oneOf" || error.keyword === "anyOf" || error.keyword === "type";
    return !(summary && targets.some((path) => path.startsWith(`${error.instancePath}/`)));
  });
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < a.length; index++) {
    if (a[index] !== b[index]) return a[index]! - b[index]!;
  }
  return 0;
}

function dedupe(violations: Violation[]): Violation[] {
  const seen = new Set<string>();
  return violations.filter((violation) => {
    const key = `${violation.path}\u0000${violation.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
