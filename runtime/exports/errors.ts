// One group of the package entry's named exports. The entry re-exports each
// group whole (export *), so that importing one name here makes a bundler follow
// this group's module only, never every module the entry names.
export {
  isStackError,
  NetworkError,
  StackAssertionError,
  StackConfigurationError,
  UserNotSignedInError,
  type StackErrorName,
} from "../errors.js";
export type { StackkitError } from "../stackkit-error.js";
