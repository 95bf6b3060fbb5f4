// Where 2.8.86 consults a project's sign-up rules (emulator/engine/sign-up-rules.ts):
// on every sign-up path, just before the user is made or an anonymous user is
// upgraded, after the path's own checks. A rejection leaves nothing behind; a
// restriction marks the user as restricted by an administrator, with the rule
// named in the private details, as the service records it. The same step
// records the country the sign-up came from (engine/sign-up-country.ts).
import type { EmulatorContext } from "../engine/context.js";
import { fail } from "../engine/errors.js";
import { signUpCountryCode } from "../engine/sign-up-country.js";
import { evaluateSignUpRules, type SignUpContext } from "../engine/sign-up-rules.js";
import type { ProjectRecord, UserRecord } from "../engine/store.js";
import { primaryChannelOf } from "../engine/views.js";

/** What the service answers a rejected sign-up with: the rule's own message is for the project, never shown. */
const REJECTED_MESSAGE = "Your sign up was rejected by an administrator's sign-up rule.";

/** A sign-up as admitSignUp sees it: what the rules see, and the country its request came from (null when unknown). */
export interface SignUpRequest extends SignUpContext {
  readonly requestCountry: string | null;
}

/**
 * Decides a sign-up by the project's rules: throws 403 SIGN_UP_REJECTED when they refuse it, else answers what
 * to do to the user once made (or `upgrading`, the anonymous user who becomes them): record the country the sign-up
 * came from (an upgraded user keeps one recorded before), and the rule that restricts them, if one does. Versions
 * without sign-up rules let every sign-up through; without sign-up risk (2.8.11) nothing is recorded.
 */
export function admitSignUp(
  ctx: EmulatorContext,
  project: ProjectRecord,
  context: SignUpRequest,
  upgrading?: UserRecord,
): (user: UserRecord) => void {
  // Without an e-mail of its own (an OAuth account without one), an upgrade is judged by the user's e-mail, if any.
  const email = context.email ?? (upgrading ? (primaryChannelOf(ctx.store, upgrading.id)?.value ?? null) : null);
  const country = ctx.profile.signUpRisk ? (upgrading?.country_code ?? signUpCountryCode(context.requestCountry, email)) : null;
  const restriction = ctx.profile.signUpRules ? restrictionOf(project, { ...context, email }) : null;
  return (user) => {
    if (country !== null) ctx.store.updateUser(user.id, { country_code: country });
    if (restriction === null) return;
    // An upgraded user keeps what an administrator noted before, the rule's note after it.
    const before = user.restricted_by_admin_private_details;
    ctx.store.updateUser(user.id, {
      restricted_by_admin: true,
      restricted_by_admin_private_details: before ? `${before}\n\n${restriction}` : restriction,
    });
  };
}

/** What a restricting rule notes in the user's private details; null when no rule restricts. SIGN_UP_REJECTED when one rejects. */
function restrictionOf(project: ProjectRecord, context: SignUpContext): string | null {
  const config = project.sign_up_rules;
  const outcome = evaluateSignUpRules(config, context);
  if (!outcome.allowed) throw fail("SIGN_UP_REJECTED", { message: REJECTED_MESSAGE });
  const ruleId = outcome.restrictedBy;
  if (ruleId === null) return null;
  const name = config?.rules[ruleId]?.displayName ?? "";
  return `Restricted by sign-up rule: ${ruleId}${name ? ` (${name})` : ""}`;
}
