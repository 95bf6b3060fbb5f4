// Words for end users: describeError and what it is made of.
export { describeError, GENERIC_ERROR_CODES } from "./describe.js";
export { englishErrorMessages } from "./english.js";
export type {
  DescribeErrorOptions,
  ErrorMessage,
  ErrorMessages,
  GenericErrorCode,
  MessageParams,
  MessageText,
  UserFacingError,
  UserFacingErrorCode,
} from "./types.js";
