// One group of the package entry's named exports. The entry re-exports each
// group whole (export *), so that importing one name here makes a bundler follow
// this group's module only, never every module the entry names.
export {
  createKnownError,
  isKnownError,
  isKnownErrorCode,
  KnownError,
  knownErrorClasses,
  KnownErrors,
  knownErrorStatus,
  type KnownErrorClass,
  type KnownErrorClassOf,
  type KnownErrorCode,
  type KnownErrorDetails,
  type KnownErrorInit,
  type KnownErrorJSON,
  type KnownErrorLike,
  type KnownErrorOf,
  type KnownErrorsByCode,
} from "../../generated/known-errors.js";
export { SessionEndedError } from "../app/bound-session.js";
