// Type test, checked by `make typecheck` (tsc): known errors are typed by their
// code. `isKnownError(e, code)` narrows to the code's class and its `details`, a
// parent code to its family's class, a misspelled code does not compile, and
// each method's Result carries the classes of the codes it returns. Nothing
// here runs; it only has to type-check.
import {
  isKnownError,
  KnownErrors,
  type KnownErrorCode,
  type KnownErrorLike,
  type KnownErrorOf,
  type StackClientApp,
} from "../../runtime/index.js"; // in an app: from "stackkit"
import type { Result } from "../../runtime/app/result.js";
import { errorOf, resultOf } from "../../runtime/app/result-of.js";

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only for `true`. */
function expectTrue<_T extends true>(): void {}

/** The error of a method's Result. */
type ResultError<M extends (...args: never[]) => Promise<Result<unknown, unknown>>> = Extract<
  Awaited<ReturnType<M>>,
  { status: "error" }
>["error"];

type Mfa = KnownErrors["MultiFactorAuthenticationRequired"];

export function narrowsToTheClassOfTheCode(e: unknown): void {
  if (isKnownError(e, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) {
    expectTrue<Equal<typeof e, Mfa>>();
    expectTrue<Equal<typeof e.code, "MULTI_FACTOR_AUTHENTICATION_REQUIRED">>();
    // The wire's details, typed: no cast to read the attempt code.
    expectTrue<Equal<typeof e.details, { attempt_code: string } | undefined>>();
    const attemptCode: string | undefined = e.details?.attempt_code;
    console.info(attemptCode, e.statusCode, e.humanReadableMessage);
  }
  if (isKnownError(e, "PASSWORD_TOO_SHORT")) {
    const minLength: number | undefined = e.details?.min_length;
    console.info(minLength);
  }
}

export function aParentCodeNarrowsToItsFamily(e: unknown): void {
  if (isKnownError(e, "VERIFICATION_ERROR")) {
    expectTrue<Equal<typeof e, KnownErrors["VerificationCodeError"]>>();
    // Any code of the family, the parent's own included.
    const expired: typeof e.code = "VERIFICATION_CODE_EXPIRED";
    const used: typeof e.code = "VERIFICATION_CODE_ALREADY_USED";
    // @ts-expect-error: EMAIL_PASSWORD_MISMATCH is not of the VERIFICATION_ERROR family
    const other: typeof e.code = "EMAIL_PASSWORD_MISMATCH";
    console.info(expired, used, other);
  }
  if (isKnownError(e, "INVALID_ACCESS_TOKEN")) {
    // A descendant's class is one of its family.
    const child: KnownErrors["InvalidAccessToken"] = new KnownErrors.AccessTokenExpired();
    console.info(child, e.code);
  }
}

export function withoutACodeItIsAnyKnownError(e: unknown): void {
  if (isKnownError(e)) {
    expectTrue<Equal<typeof e, KnownErrorLike>>();
    const code: string = e.code;
    console.info(code);
  }
}

export function aMisspelledCodeDoesNotCompile(e: unknown): void {
  // @ts-expect-error: not a code of the catalogue
  isKnownError(e, "MULTI_FACTOR_AUTHENTICATION_REQUIRE");
  // @ts-expect-error: codes are upper case
  isKnownError(e, "user_not_found");
  // @ts-expect-error: a class name is not a code
  void resultOf(async () => 1, ["EmailPasswordMismatch"]);
  // @ts-expect-error: not a code of the catalogue
  void errorOf(async () => 1, ["PASSWORD_REQUIREMENTS_NOT_MEET"]);
}

export function narrowsAUnionOfErrors(error: KnownErrors["EmailPasswordMismatch"] | Mfa): void {
  if (isKnownError(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) {
    expectTrue<Equal<typeof error, Mfa>>();
  } else {
    expectTrue<Equal<typeof error, KnownErrors["EmailPasswordMismatch"]>>();
  }
}

export function theCodeClassMapIsTheRegistrysClasses(): void {
  expectTrue<Equal<KnownErrorOf<"USER_NOT_FOUND">, KnownErrors["UserNotFound"]>>();
  expectTrue<Equal<KnownErrorOf<"USER_NOT_FOUND" | "TEAM_NOT_FOUND">, KnownErrors["UserNotFound"] | KnownErrors["TeamNotFound"]>>();
  // Every code has its class.
  const every: { [C in KnownErrorCode]: KnownErrorOf<C> extends KnownErrors[keyof KnownErrors] ? true : false } = {} as never;
  const check: Record<KnownErrorCode, true> = every;
  console.info(check);
}

export async function resultsAreTypedByTheCodesTheyReturn(): Promise<void> {
  // resultOf and errorOf: the error is the classes of the codes given, nothing wider.
  const result = await resultOf(async () => "data", ["VERIFICATION_ERROR", "EMAIL_PASSWORD_MISMATCH"]);
  expectTrue<Equal<typeof result, Result<string, KnownErrors["VerificationCodeError"] | KnownErrors["EmailPasswordMismatch"]>>>();
  const error = await errorOf(async () => undefined, ["PASSWORD_REQUIREMENTS_NOT_MET"]);
  expectTrue<Equal<typeof error, KnownErrors["PasswordRequirementsNotMet"] | undefined>>();
}

export function methodsReturnTheirCodesClasses(): void {
  type App = StackClientApp;
  expectTrue<Equal<ResultError<App["signInWithCredential"]>, KnownErrors["EmailPasswordMismatch"] | Mfa>>();
  expectTrue<
    Equal<
      ResultError<App["signUpWithCredential"]>,
      | KnownErrors["UserWithEmailAlreadyExists"]
      | KnownErrors["PasswordRequirementsNotMet"]
      | KnownErrors["BotChallengeRequired"]
      | KnownErrors["BotChallengeFailed"]
    >
  >();
  expectTrue<Equal<ResultError<App["signInWithMfa"]>, KnownErrors["InvalidTotpCode"] | KnownErrors["VerificationCodeError"]>>();
  expectTrue<Equal<ResultError<App["signInWithMagicLink"]>, KnownErrors["VerificationCodeError"] | Mfa>>();
  expectTrue<Equal<ResultError<App["verifyEmail"]>, KnownErrors["VerificationCodeError"]>>();
  expectTrue<Equal<ResultError<App["verifyPasswordResetCode"]>, KnownErrors["VerificationCodeError"]>>();
  expectTrue<Equal<ResultError<App["resetPassword"]>, KnownErrors["VerificationCodeError"]>>();
  expectTrue<Equal<ResultError<App["sendForgotPasswordEmail"]>, KnownErrors["UserNotFound"]>>();
  expectTrue<
    Equal<
      ResultError<App["sendMagicLinkEmail"]>,
      KnownErrors["RedirectUrlNotWhitelisted"] | KnownErrors["BotChallengeRequired"] | KnownErrors["BotChallengeFailed"]
    >
  >();
  expectTrue<
    Equal<ResultError<App["acceptTeamInvitation"]>, KnownErrors["VerificationCodeError"] | KnownErrors["TeamInvitationEmailMismatch"]>
  >();
  expectTrue<Equal<ResultError<App["getTeamInvitationDetails"]>, KnownErrors["VerificationCodeError"]>>();
  expectTrue<
    Equal<
      ResultError<App["promptCliLogin"]>,
      KnownErrors["CliAuthError"] | KnownErrors["CliAuthExpiredError"] | KnownErrors["CliAuthUsedError"]
    >
  >();
  expectTrue<Equal<ResultError<App["completeCliLogin"]>, KnownErrors["SchemaError"]>>();
  expectTrue<
    Equal<
      ResultError<App["signInWithPasskey"]>,
      KnownErrors["PasskeyAuthenticationFailed"] | KnownErrors["PasskeyWebAuthnError"] | Mfa | KnownErrors["InvalidTotpCode"]
    >
  >();
}

export async function anAppReadsTheAttemptCodeWithoutACast(
  app: StackClientApp,
  email: string,
  password: string,
  totp: string,
): Promise<void> {
  const signIn = await app.signInWithCredential({ email, password, noRedirect: true });
  if (signIn.status === "error" && isKnownError(signIn.error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) {
    const attemptCode = signIn.error.details?.attempt_code;
    if (attemptCode !== undefined) await app.signInWithMfa(totp, attemptCode);
  }
  const user = await app.getUser({ or: "throw" });
  const failed = await user.updatePassword({ oldPassword: password, newPassword: "a new password" });
  // `void` rather than `undefined`, as the reference SDK declares it.
  expectTrue<Equal<typeof failed, KnownErrors["PasswordConfirmationMismatch"] | KnownErrors["PasswordRequirementsNotMet"] | void>>();
}
