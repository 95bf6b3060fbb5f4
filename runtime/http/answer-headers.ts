// The service's own response headers under either of its names. The hosted
// service after 2.8.86 sends each as `x-hexclave-<name>` beside `x-stack-<name>`;
// 2.8.11 and 2.8.86 send only `x-stack-<name>`. The hexclave one is read first, as the
// newest official SDK reads it, so that a service that (one day) sends only it
// is read as well. Requests keep sending `x-stack-*` names only (headers.ts).

/** The names of the service's response headers that the client reads. */
export type AnswerHeaderName = "known-error" | "actual-status";

/** The value of the service's header `name`: `x-hexclave-<name>` when present, else `x-stack-<name>`, else null. */
export function answerHeader(headers: Headers, name: AnswerHeaderName): string | null {
  return headers.get(`x-hexclave-${name}`) ?? headers.get(`x-stack-${name}`);
}
