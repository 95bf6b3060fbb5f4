// Sign-up rules, as 2.8.86 keeps them in a project's config (`auth.signUpRules`,
// `auth.signUpRulesDefaultAction`) and evaluates them on every sign-up. The
// service's conditions are CEL expressions over a context (the e-mail, its
// domain, the auth method, the OAuth provider); the emulator has no CEL, so a
// condition here is a structured matcher over the same context. The order and
// the actions are the service's: priority highest first, then id; disabled
// rules skipped; `allow` and `reject` end the evaluation, `restrict` marks the
// user (the first such rule counts) and goes on, `log` only goes on; when no
// rule decided, the default action does.

/** How a sign-up proves who signs up, as a rule's context names it. */
export type SignUpAuthMethod = "password" | "otp" | "oauth" | "passkey";

/** The auth methods a condition can name. */
export const SIGN_UP_AUTH_METHODS: readonly SignUpAuthMethod[] = ["password", "otp", "oauth", "passkey"];

/**
 * When a rule applies, in place of the service's CEL expression: every field given must match (an empty object
 * matches every sign-up); a list matches when any of its entries does. E-mails and domains are compared trimmed and
 * lower-cased, as the service normalises the context's e-mail.
 *
 * @example
 * ```ts
 * // CEL: emailDomain == "example.com" && (authMethod == "password" || authMethod == "otp")
 * const condition: SignUpRuleCondition = { emailDomains: ["example.com"], authMethods: ["password", "otp"] };
 * ```
 */
export interface SignUpRuleCondition {
  /** The e-mail addresses signing up (`email == "…"`); a sign-up without an e-mail matches none. */
  readonly emails?: readonly string[];
  /** The domains after the `@` (`emailDomain == "…"`); a sign-up without an e-mail matches none. */
  readonly emailDomains?: readonly string[];
  /** How the user signs up (`authMethod == "…"`). */
  readonly authMethods?: readonly SignUpAuthMethod[];
  /** The OAuth providers (`oauthProvider == "github"`); only OAuth sign-ups have one. */
  readonly oauthProviders?: readonly string[];
}

/** What a matching rule does: `allow` or `reject` the sign-up (deciding it), `restrict` the new user, or `log` it only. */
export type SignUpRuleActionType = "allow" | "reject" | "restrict" | "log";

/** One rule of a project (the service's `auth.signUpRules.<id>`). */
export interface SignUpRule {
  /** Whether it is evaluated at all (the service's default is false: a rule is off until enabled). */
  readonly enabled: boolean;
  /** Its name in the dashboard; a restricting rule's name goes into the user's `restricted_by_admin_private_details`. */
  readonly displayName?: string;
  /** Higher first; rules of equal priority go by id. Default 0. */
  readonly priority?: number;
  readonly condition: SignUpRuleCondition;
  readonly action: { readonly type: SignUpRuleActionType; readonly message?: string };
}

/**
 * A project's sign-up rules, by id, and what happens when none decides (`"allow"` unless told).
 *
 * @example
 * ```ts
 * const config: SignUpRulesConfig = {
 *   rules: {
 *     "block-disposable": { enabled: true, priority: 10, condition: { emailDomains: ["mailinator.com"] }, action: { type: "reject" } },
 *     "review-github": { enabled: true, condition: { oauthProviders: ["github"] }, action: { type: "restrict" } },
 *   },
 *   defaultAction: "allow",
 * };
 * emulator.control.setSignUpRules(DEMO_KEYS.projectId, config);
 * ```
 */
export interface SignUpRulesConfig {
  readonly rules: Readonly<Record<string, SignUpRule>>;
  readonly defaultAction?: "allow" | "reject";
}

/** What the rules see of a sign-up. */
export interface SignUpContext {
  readonly email: string | null;
  readonly authMethod: SignUpAuthMethod;
  readonly oauthProvider: string | null;
}

/** The outcome: whether the sign-up goes ahead, and the first restricting rule that matched (its id), if any. */
export interface SignUpRulesOutcome {
  readonly allowed: boolean;
  readonly restrictedBy: string | null;
}

/** The service orders rule ids by code unit, not by locale. */
const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function evaluateSignUpRules(config: SignUpRulesConfig | undefined, context: SignUpContext): SignUpRulesOutcome {
  const email = context.email?.trim().toLowerCase() ?? "";
  const domain = email.includes("@") ? (email.split("@").pop() ?? "") : "";
  const matches = (c: SignUpRuleCondition) =>
    (c.emails === undefined || (email !== "" && c.emails.some((e) => e.trim().toLowerCase() === email))) &&
    (c.emailDomains === undefined || (domain !== "" && c.emailDomains.some((d) => d.trim().toLowerCase() === domain))) &&
    (c.authMethods === undefined || c.authMethods.includes(context.authMethod)) &&
    (c.oauthProviders === undefined || c.oauthProviders.includes(context.oauthProvider ?? ""));
  const ordered = Object.entries(config?.rules ?? {}).sort(([idA, a], [idB, b]) => (b.priority ?? 0) - (a.priority ?? 0) || byId(idA, idB));
  let restrictedBy: string | null = null;
  for (const [id, rule] of ordered) {
    if (rule.enabled !== true || !matches(rule.condition)) continue;
    if (rule.action.type === "allow" || rule.action.type === "reject") return { allowed: rule.action.type === "allow", restrictedBy };
    if (rule.action.type === "restrict") restrictedBy ??= id;
  }
  return { allowed: config?.defaultAction !== "reject", restrictedBy };
}

// THE CONTROL API'S CHECK (what it is given over HTTP is plain JSON)

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

function stringList(value: unknown, where: string, allowed?: readonly string[]): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || (allowed !== undefined && !allowed.includes(v))))
    throw new TypeError(`${where} must be a list of ${allowed ? allowed.map((a) => `"${a}"`).join(", ") : "strings"}`);
  return value as string[];
}

function parseRule(id: string, value: unknown): SignUpRule {
  const at = `rules["${id}"]`;
  // The service's pattern for ids a project chooses.
  if (!/^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62}$/.test(id))
    throw new TypeError(`${at}: a rule id is up to 63 letters, digits, "_" and "-", not starting with "-"`);
  if (!isObject(value)) throw new TypeError(`${at} must be an object`);
  const { enabled, displayName, priority, condition, action } = value;
  if (typeof enabled !== "boolean") throw new TypeError(`${at}.enabled must be true or false`);
  if (displayName !== undefined && typeof displayName !== "string") throw new TypeError(`${at}.displayName must be a string`);
  if (priority !== undefined && (typeof priority !== "number" || !Number.isInteger(priority) || priority < 0))
    throw new TypeError(`${at}.priority must be a whole number >= 0`);
  if (!isObject(condition)) throw new TypeError(`${at}.condition must be an object ({} matches every sign-up)`);
  const known = ["emails", "emailDomains", "authMethods", "oauthProviders"];
  const unknown = Object.keys(condition).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw new TypeError(`${at}.condition takes ${known.join(", ")}, not ${unknown.join(", ")}`);
  const types: readonly SignUpRuleActionType[] = ["allow", "reject", "restrict", "log"];
  if (!isObject(action) || !types.includes(action["type"] as SignUpRuleActionType))
    throw new TypeError(`${at}.action must be { "type": ${types.map((t) => `"${t}"`).join(" | ")} }`);
  if (action["message"] !== undefined && typeof action["message"] !== "string")
    throw new TypeError(`${at}.action.message must be a string`);
  const lists = {
    emails: stringList(condition["emails"], `${at}.condition.emails`),
    emailDomains: stringList(condition["emailDomains"], `${at}.condition.emailDomains`),
    authMethods: stringList(condition["authMethods"], `${at}.condition.authMethods`, SIGN_UP_AUTH_METHODS) as
      SignUpAuthMethod[] | undefined,
    oauthProviders: stringList(condition["oauthProviders"], `${at}.condition.oauthProviders`),
  };
  return {
    enabled,
    ...(displayName === undefined ? {} : { displayName }),
    ...(priority === undefined ? {} : { priority }),
    condition: Object.fromEntries(Object.entries(lists).filter(([, list]) => list !== undefined)),
    action: { type: action["type"] as SignUpRuleActionType, ...(action["message"] === undefined ? {} : { message: action["message"] }) },
  };
}

/** Sign-up rules as the control API takes them (`{ rules, defaultAction? }`), checked; a TypeError says what is wrong. */
export function parseSignUpRules(value: unknown): SignUpRulesConfig {
  if (!isObject(value) || !isObject(value["rules"])) throw new TypeError('"rules" must be an object of rules by id ({} for none)');
  const defaultAction = value["defaultAction"];
  if (defaultAction !== undefined && defaultAction !== null && defaultAction !== "allow" && defaultAction !== "reject")
    throw new TypeError('"defaultAction" must be "allow" or "reject"');
  const rules = Object.fromEntries(Object.entries(value["rules"]).map(([id, rule]) => [id, parseRule(id, rule)]));
  return { rules, defaultAction: defaultAction === "reject" ? "reject" : "allow" };
}
