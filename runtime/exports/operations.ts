// One group of the package entry's named exports. The entry re-exports each
// group whole (export *), so that importing one name here makes a bundler follow
// this group's module only, never every module the entry names.
export {
  operationKnownErrors,
  operations,
  readOperationPaths,
  type AccessType,
  type HttpMethod,
  type OperationId,
  type OperationInfo,
  type OperationKnownError,
  type OperationRoute,
} from "../../generated/operations.js";
export type { RouteData, RouteInit, Send } from "../send.js";
