// Finds the operation a request is for, so the pipeline can apply its rules
// (which tokens it takes, whether it may be resent) to any request the typed
// client builds.
import { operations, type OperationId, type OperationInfo } from "../generated/operations.js";
import { isIdempotentMethod } from "./retry.js";

export interface MatchedOperation extends OperationInfo {
  readonly operationId: OperationId | undefined;
}

interface Route {
  readonly id: OperationId;
  readonly info: OperationInfo;
  readonly pattern: RegExp;
  readonly params: number;
}

// Concrete paths win over templated ones (`/users/me` before `/users/{user_id}`),
// as OpenAPI says they must.
const routes: Route[] = (Object.entries(operations) as [OperationId, OperationInfo][])
  .map(([id, info]) => ({
    id,
    info,
    pattern: new RegExp(`^${info.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
    params: (info.path.match(/\{/g) ?? []).length,
  }))
  .sort((a, b) => a.params - b.params);

/**
 * The operation for `method` and a path relative to `/api/v1`. A path the
 * document does not list (a newer endpoint called through `request()`) gets the
 * general rules: all access types, user tokens when there are some, and resend
 * only if the method is idempotent.
 */
export function matchOperation(method: string, path: string): MatchedOperation {
  const upper = method.toUpperCase();
  const route = routes.find((r) => r.info.method === upper && r.pattern.test(path));
  if (route) return { ...route.info, operationId: route.id };
  return {
    operationId: undefined,
    method: upper as OperationInfo["method"],
    path,
    tag: "",
    accessTypes: ["client", "server", "admin"],
    stackHeaders: true,
    userTokens: "optional",
    refreshTokenHeader: false,
    idempotent: isIdempotentMethod(upper),
    requestBody: "json",
    responseBody: "json",
  };
}
