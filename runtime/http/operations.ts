// What the pipeline needs to know of each operation (which tokens it takes,
// whether it may be resent, what its answer holds), from the compact route table.
// Loaded on first use, not with the app: the runtime's own calls name their
// operation (`GET /users/me`), and the typed client's requests are matched by URL.
import {
  operationRoutes,
  ROUTE_DEFAULTS,
  ROUTE_FORM_BODY,
  ROUTE_JSON_RESPONSE,
  ROUTE_REFRESH_TOKEN_HEADER,
  ROUTE_STACK_HEADERS,
  ROUTE_TEXT_RESPONSE,
  type HttpMethod,
  type OperationId,
  type OperationRoute,
} from "../../generated/operations.js";
import { StackAssertionError } from "../errors.js";
import { isIdempotentMethod } from "./retry.js";

export interface MatchedOperation {
  /** Undefined for a path the document does not list. */
  readonly operationId: OperationId | undefined;
  readonly method: HttpMethod;
  readonly path: string;
  /** False for the token endpoint and the authorize navigation. */
  readonly stackHeaders: boolean;
  readonly refreshTokenHeader: boolean;
  readonly idempotent: boolean;
  /** The request body is a form, not JSON. */
  readonly formBody: boolean;
  readonly responseBody: "json" | "text" | "none";
}

interface Route {
  readonly op: MatchedOperation;
  readonly pattern: RegExp;
  readonly params: number;
}

function operationOf(operationId: OperationId | undefined, method: HttpMethod, path: string, flags: number): MatchedOperation {
  return {
    operationId,
    method,
    path,
    stackHeaders: (flags & ROUTE_STACK_HEADERS) !== 0,
    refreshTokenHeader: (flags & ROUTE_REFRESH_TOKEN_HEADER) !== 0,
    idempotent: isIdempotentMethod(method),
    formBody: (flags & ROUTE_FORM_BODY) !== 0,
    responseBody: flags & ROUTE_JSON_RESPONSE ? "json" : flags & ROUTE_TEXT_RESPONSE ? "text" : "none",
  };
}

// Concrete paths win over templated ones (`/users/me` before `/users/{user_id}`),
// as OpenAPI says they must.
const routes: Route[] = operationRoutes
  .flatMap(([path, ...ops]) => {
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
    const params = (path.match(/\{/g) ?? []).length;
    return ops.map(([method, operationId, flags = ROUTE_DEFAULTS]) => ({
      op: operationOf(operationId, method, path, flags),
      pattern,
      params,
    }));
  })
  .sort((a, b) => a.params - b.params);

const byRoute = new Map<string, MatchedOperation>(routes.map(({ op }) => [`${op.method} ${op.path}`, op]));

/** The operation a runtime call names, `GET /users/me`. */
export function operationOfRoute(route: OperationRoute): MatchedOperation {
  const op = byRoute.get(route);
  if (op === undefined) throw new StackAssertionError(`${route} is not an operation of the document`);
  return op;
}

/**
 * The operation for `method` and a path relative to `/api/v1`. A path the
 * document does not list (a newer endpoint called through `request()`) gets the
 * general rules: the x-stack headers, a JSON answer, and resend only if the
 * method is idempotent.
 */
export function matchOperation(method: string, path: string): MatchedOperation {
  const upper = method.toUpperCase() as HttpMethod;
  const route = routes.find((r) => r.op.method === upper && r.pattern.test(path));
  if (route) return route.op;
  return operationOf(undefined, upper, path, ROUTE_DEFAULTS);
}
