// The feature-support report the SDK sends for what it cannot do. The other
// authentication operations live in auth-password.ts, auth-otp.ts and sessions.ts.
import type { Handlers } from "../engine/context.js";

export const featureSupportHandlers = {
  // The service records the attempt and answers a plain-text message (which the SDK raises as an error).
  checkFeatureSupport: (request) => {
    const feature = (request.body as { feature_name?: unknown } | undefined)?.feature_name;
    return {
      text: `${feature === undefined || feature === null ? "This feature" : String(feature)} is not yet supported. Please reach out to Stack support for more information.`,
    };
  },
} satisfies Handlers;
