// The flows that load on their first use, one loader each: they are heavy and
// rarely on the first screen. Whoever starts a flow goes through its loader
// here (the client app for all of them; a connected account for OAuth's link
// flow), so that each loads once however many places start it.
import { lazy } from "../../platform/lazy.js";

export const loadOAuth = /* @__PURE__ */ lazy("OAuth sign-in", () => import("./oauth.js"));
export const loadPasskey = /* @__PURE__ */ lazy("passkeys", () => import("./passkey.js"));
export const loadMfa = /* @__PURE__ */ lazy("multi-factor sign-in", () => import("./mfa.js"));
export const loadCli = /* @__PURE__ */ lazy("command-line login", () => import("./cli.js"));
/** The Convex integration: read by the apps of a Convex project only (both apps' getPartialUser and the server's getUser). */
export const loadConvex = /* @__PURE__ */ lazy("Convex integration", () => import("../convex.js"));
