// One group of the package entry's named exports: the errors about one request.
export {
  HttpError,
  RateLimitError,
  RequestTimeoutError,
  ResponseFormatError,
  ServiceVersionError,
  UnexpectedRedirectError,
} from "../request-errors.js";
