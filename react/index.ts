// The React entry, `stackkit/react`. React Query hooks and query options are
// built on the runtime; the runtime entry never imports React.
export { stackQueryKey, type StackQueryKey } from "./query-keys.js";
