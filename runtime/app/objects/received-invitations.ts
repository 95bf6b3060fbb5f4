// The invitations a user received (the newest official SDK's
// `user.listTeamInvitations()`): those sent to one of the user's verified
// e-mail addresses and still pending, each accepted by its id without the
// e-mailed code. A 2.8.86 service feature: 2.8.11 refuses `user_id` on the
// listing and has no accept by id, which the calls turn into a
// ServiceVersionError that points to the e-mailed code instead.
import { signalOf, type CallOptions } from "../call-options.js";
import { StackAssertionError, isStackError } from "../../errors.js";
import { ServiceVersionError, type HttpError } from "../../http/request-errors.js";
import type { ClientAppContext } from "../context.js";
import { itemsOf, schemaProblems } from "../wire.js";

/**
 * A team invitation as its recipient sees it (`user.listTeamInvitations()`): sent to one of the
 * user's verified e-mail addresses and still pending. The newest official SDK's `ReceivedTeamInvitation`.
 *
 * @example
 * ```ts
 * const invitations = await user.listTeamInvitations();
 * for (const invitation of invitations) {
 *   console.log(`${invitation.teamDisplayName} invited ${invitation.recipientEmail} until ${invitation.expiresAt.toISOString()}`);
 * }
 * ```
 */
export type ReceivedTeamInvitation = {
  /** The invitation's id. */
  readonly id: string;
  /** The id of the team the invitation is to. */
  readonly teamId: string;
  /** The display name of that team. */
  readonly teamDisplayName: string;
  /** The user's address the invitation was sent to. */
  readonly recipientEmail: string;
  /** When the invitation stops working. */
  readonly expiresAt: Date;
  /**
   * Joins the team (`POST /team-invitations/{invitation_id}/accept`), as the user the invitation
   * was listed for, and uses the invitation up. The user must still have the recipient address
   * verified; a used or expired invitation is VERIFICATION_CODE_NOT_FOUND. Read the user's teams
   * and invitations again afterwards: earlier lists do not change.
   *
   * @example
   * ```ts
   * const [invitation] = await user.listTeamInvitations();
   * if (invitation) {
   *   await invitation.accept();
   *   const teams = await user.listTeams();
   * }
   * ```
   */
  accept(options?: CallOptions): Promise<void>;
};

const LISTING_REFUSED = [/^- query\.team_id must be defined$/, /^- query contains unknown properties: user_id$/];
const NO_SUCH_ROUTE = "this page does not exist in Stack Auth's API";
const WHY = "it has no list of the invitations a user received, nor accepting one by its id (both came with 2.8.86)";
const INSTEAD =
  "accept an invitation with the code of its e-mailed link, app.acceptTeamInvitation(code) (app.getTeamInvitationDetails(code) names its team); a team's members with $read_members and $invite_members can list its pending invitations with team.listInvitations()";

/** Whether `error` is 2.8.11's answer to `user_id` on the listing: a SCHEMA_ERROR of only a missing team_id and that unknown property. */
function isListingRefused(error: unknown): boolean {
  const problems = schemaProblems(error);
  if (problems === undefined) return false;
  return problems.some((line) => LISTING_REFUSED[1]!.test(line)) && problems.every((line) => LISTING_REFUSED.some((p) => p.test(line)));
}

/** Whether `error` is the service's plain-text 404 for a route it does not have. */
function isNoSuchRoute(error: unknown): boolean {
  if (!isStackError(error, "HttpError")) return false;
  const { status, body } = error as HttpError;
  return status === 404 && typeof body === "string" && body.includes(NO_SUCH_ROUTE);
}

/**
 * `GET /team-invitations?user_id=` for `userId` (`"me"` on a user's own session, the id on a
 * server): the user's received invitations, each accepted for the same user through `ctx`, the
 * context the user was read in.
 */
export async function listReceivedTeamInvitations(
  ctx: ClientAppContext,
  userId: string,
  method: string,
  options?: CallOptions,
): Promise<ReceivedTeamInvitation[]> {
  let answer;
  try {
    answer = await ctx.client.send("GET /team-invitations", { params: { query: { user_id: userId } }, ...signalOf(options) });
  } catch (error) {
    if (isListingRefused(error)) throw new ServiceVersionError(method, "2.8.11", WHY, INSTEAD);
    throw error;
  }
  const items = itemsOf(answer.data, "GET /team-invitations");
  return items.map((invitation) => {
    const expiresAt = invitation.expires_at_millis;
    if (typeof invitation.team_display_name !== "string" || typeof invitation.recipient_email !== "string") {
      throw new StackAssertionError("GET /team-invitations?user_id= answered an invitation without its team's name or recipient");
    }
    if (typeof expiresAt !== "number" || !Number.isFinite(expiresAt)) {
      throw new StackAssertionError("The service answered a team invitation's expires_at_millis that is not a time in milliseconds");
    }
    return Object.freeze({
      id: invitation.id,
      teamId: invitation.team_id,
      teamDisplayName: invitation.team_display_name,
      recipientEmail: invitation.recipient_email,
      expiresAt: new Date(expiresAt),
      async accept(acceptOptions?: CallOptions) {
        try {
          await ctx.client.send("POST /team-invitations/{invitation_id}/accept", {
            params: { path: { invitation_id: invitation.id }, query: { user_id: userId } },
            ...signalOf(acceptOptions),
          });
        } catch (error) {
          if (isNoSuchRoute(error)) throw new ServiceVersionError("invitation.accept", "2.8.11", WHY, INSTEAD);
          throw error;
        }
      },
    });
  });
}
