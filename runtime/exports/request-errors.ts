// One group of the package entry's named exports: the errors about one request.
export { HttpError, RateLimitError, RequestTimeoutError, ResponseFormatError, UnexpectedRedirectError } from "../request-errors.js";
