// The runtime entry, `stackkit`. It re-exports only; each concern lives in its own module.
export {
  createKnownError,
  isKnownError,
  isKnownErrorCode,
  KnownError,
  knownErrorClasses,
  KnownErrors,
  knownErrorStatus,
  type KnownErrorCode,
  type KnownErrorDetails,
  type KnownErrorInit,
  type KnownErrorJSON,
  type KnownErrorLike,
} from "../generated/known-errors.js";
export {
  operationKnownErrors,
  operations,
  type AccessType,
  type HttpMethod,
  type OperationId,
  type OperationInfo,
  type OperationKnownError,
} from "../generated/operations.js";
export type { components, operations as OperationTypes, paths } from "../generated/schema.js";
