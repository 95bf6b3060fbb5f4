// E-mail verification: the page a verification link opens redeems its code.
// (Sending a verification e-mail belongs to the current user and its contact
// channels, not to the app.)
import type { VerificationCodeError } from "../../../generated/known-errors.js";
import { signalOf, type CallOptions } from "../call-options.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { resultOf } from "../result-of.js";

/** Marks the e-mail address of a verification link verified; the code works once. */
export async function verifyEmail(
  ctx: ClientAppContext,
  code: string,
  options?: CallOptions,
): Promise<Result<undefined, VerificationCodeError>> {
  return resultOf(async () => {
    await ctx.client.send("POST /contact-channels/verify", { body: { code }, ...signalOf(options) });
    return undefined;
  }, ["VERIFICATION_ERROR"]);
}
