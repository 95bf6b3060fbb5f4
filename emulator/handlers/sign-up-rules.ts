// Where 2.8.86 consults a project's sign-up rules (emulator/engine/sign-up-rules.ts):
// on every sign-up path, just before the user is made or an anonymous user is
// upgraded, after the path's own checks. A rejection leaves nothing behind; a
// restriction marks the user as restricted by an administrator, with the rule
// named in the private details, as the service records it.
import type { EmulatorContext } from "../engine/context.js";
import { fail } from "../engine/errors.js";
import { evaluateSignUpRules, type SignUpContext } from "../engine/sign-up-rules.js";
import type { ProjectRecord, UserRecord } from "../engine/store.js";
import { primaryChannelOf } from "../engine/views.js";

/** What the service answers a rejected sign-up with: the rule's own message is for the project, never shown. */
const REJECTED_MESSAGE = "Your sign up was rejected by an administrator's sign-up rule.";

/**
 * Decides a sign-up by the project's rules: throws 403 SIGN_UP_REJECTED when they refuse it, else answers what
 * to do to the user once made (or `upgrading`, the anonymous user who becomes them). Versions without sign-up rules let every sign-up through untouched.
 */
export function admitSignUp(
  ctx: EmulatorContext,
  project: ProjectRecord,
  context: SignUpContext,
  upgrading?: UserRecord,
): (user: UserRecord) => void {
  if (!ctx.profile.signUpRules) return () => {};
  const config = project.sign_up_rules;
  // Without an e-mail of its own (an OAuth account without one), an upgrade is judged by the user's e-mail, if any.
  const email = context.email ?? (upgrading ? (primaryChannelOf(ctx.store, upgrading.id)?.value ?? null) : null);
  const outcome = evaluateSignUpRules(config, { ...context, email });
  if (!outcome.allowed) throw fail("SIGN_UP_REJECTED", { message: REJECTED_MESSAGE });
  const ruleId = outcome.restrictedBy;
  if (ruleId === null) return () => {};
  const name = config?.rules[ruleId]?.displayName ?? "";
  const details = `Restricted by sign-up rule: ${ruleId}${name ? ` (${name})` : ""}`;
  return (user) => {
    // An upgraded user keeps what an administrator noted before, the rule's note after it.
    const before = user.restricted_by_admin_private_details;
    ctx.store.updateUser(user.id, {
      restricted_by_admin: true,
      restricted_by_admin_private_details: before ? `${before}\n\n${details}` : details,
    });
  };
}
