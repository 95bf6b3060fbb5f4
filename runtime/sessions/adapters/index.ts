// Token stores for the request objects of server frameworks, and the session
// of a request for code in front of an app (issue 15 §2). Re-exports only.
export { fetchRequestTokenStore, type FetchRequestTokenStoreOptions } from "./fetch.js";
export { nextCookiesTokenStore, type NextCookieStore, type NextCookiesInput, type NextCookiesTokenStoreOptions } from "./next.js";
export { nodeRequestTokenStore, type NodeRequestLike, type NodeRequestTokenStoreOptions, type NodeResponseLike } from "./node.js";
export { tokenCookieChanges, type CookieChange, type ResponseTokenStore } from "./response-store.js";
export { getSessionFromRequest, type GetSessionFromRequestOptions, type RequestSession } from "./session.js";
