// The invitee's side of a team invitation: the page an invitation e-mail opens
// checks the code, shows the team's name and accepts (for the signed-in user).
import type { TeamInvitationEmailMismatch, VerificationCodeError } from "../../../generated/known-errors.js";
import { signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError } from "../../errors.js";
import type { ClientAppContext } from "../context.js";
import type { Result } from "../result.js";
import { resultOf } from "../result-of.js";

const CODE_ERRORS = ["VERIFICATION_ERROR"] as const;
/**
 * Accepting also meets an invitation sent to another address (since 2.8.102): the
 * user can act on it (sign in with that address, or add and verify it), so it is an
 * answer, as the newest official SDK returns it, not a failure.
 */
const ACCEPT_ERRORS = [...CODE_ERRORS, "TEAM_INVITATION_EMAIL_MISMATCH"] as const;

/** Checks an invitation code without using it up. */
export async function verifyTeamInvitationCode(
  ctx: ClientAppContext,
  code: string,
  options?: CallOptions,
): Promise<Result<undefined, VerificationCodeError>> {
  return resultOf(async () => {
    await ctx.client.send("POST /team-invitations/accept/check-code", { body: { code }, ...signalOf(options) });
    return undefined;
  }, CODE_ERRORS);
}

/** Joins the signed-in user to the invitation's team; the code works once. */
export async function acceptTeamInvitation(
  ctx: ClientAppContext,
  code: string,
  options?: CallOptions,
): Promise<Result<undefined, VerificationCodeError | TeamInvitationEmailMismatch>> {
  return resultOf(async () => {
    await ctx.client.send("POST /team-invitations/accept", { body: { code }, ...signalOf(options) });
    return undefined;
  }, ACCEPT_ERRORS);
}

/** The name of the team an invitation code is for, without using the code up. */
export async function getTeamInvitationDetails(
  ctx: ClientAppContext,
  code: string,
  options?: CallOptions,
): Promise<Result<{ teamDisplayName: string }, VerificationCodeError>> {
  return resultOf(async () => {
    const { data } = await ctx.client.send("POST /team-invitations/accept/details", { body: { code }, ...signalOf(options) });
    if (typeof data?.team_display_name !== "string") {
      throw new StackAssertionError("POST /team-invitations/accept/details answered without team_display_name");
    }
    return { teamDisplayName: data.team_display_name };
  }, CODE_ERRORS);
}
