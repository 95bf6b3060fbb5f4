// Authentication, registered as one part: e-mail and password, magic links and
// anonymous sign-up, sessions and the token endpoint, and the feature-support
// report the SDK sends for what it cannot do.
import type { Handlers } from "../engine/context.js";
import { otpHandlers } from "./auth-otp.js";
import { passwordHandlers } from "./auth-password.js";
import { sessionHandlers } from "./sessions.js";

export const authHandlers: Handlers = {
  ...passwordHandlers,
  ...otpHandlers,
  ...sessionHandlers,

  // The service records the attempt and answers a plain-text message (which the SDK raises as an error).
  checkFeatureSupport: (request) => {
    const feature = (request.body as { feature_name?: unknown } | undefined)?.feature_name;
    return {
      text: `${feature === undefined || feature === null ? "This feature" : String(feature)} is not yet supported. Please reach out to Stack support for more information.`,
    };
  },
};
