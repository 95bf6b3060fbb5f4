// Type test, checked by `make typecheck` (tsc): the React hooks and mutations
// type their `error` as what the SDK rejects with (StackkitError: the known
// errors, the runtime's own errors, the DOMException of an abort), not React
// Query's default `Error`, so an app narrows it by code without a cast. Nothing
// here runs; it only has to type-check.
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import {
  isKnownError,
  isStackError,
  type ApiKeyCreationOptions,
  type ConnectedAccountOptions,
  type ContactChannelCreateOptions,
  type ContactChannelUpdateOptions,
  type KnownErrors,
  type StackClientApp,
  type StackkitError,
  type TeamCreateOptions,
  type TeamMemberProfileUpdateOptions,
  type TeamUpdateOptions,
  type UserUpdateOptions,
} from "../../runtime/index.js"; // in an app: from "stackkit"
import {
  teamsQueryOptions,
  useCreateApiKey,
  useCreateContactChannel,
  useCreateTeam,
  useDeleteUser,
  useRevokeApiKey,
  useSignIn,
  useSignOut,
  useSignUp,
  useUpdatePassword,
  useUpdateTeam,
  useUpdateUser,
  useUserQuery,
} from "../../react/index.js"; // in an app: from "stackkit/react"

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectTrue<_T extends true>(): void {}

/** The `error` of a hook's result (null until something failed). */
type HookError<H extends (...args: never[]) => { readonly error: unknown }> = ReturnType<H>["error"];

declare const app: StackClientApp;

export function mutationsRejectWithTheSdksErrors(): void {
  expectTrue<Equal<HookError<typeof useSignIn>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useSignUp>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useSignOut>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useDeleteUser>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useUpdateUser>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useUpdatePassword>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useCreateContactChannel>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useCreateTeam>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useUpdateTeam>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useCreateApiKey>, StackkitError | null>>();
  expectTrue<Equal<HookError<typeof useRevokeApiKey>, StackkitError | null>>();
}

export function StackkitErrorIsTheSdksErrors(error: StackkitError): void {
  // Every member is an Error with a message, and can be told apart by its guard or its name.
  const message: string = error.message;
  if (isKnownError(error)) console.info(error.code);
  else if (isStackError(error, "RateLimitError")) console.info(error.name);
  else if (error.name === "AbortError") console.info("cancelled");
  console.info(message);
}

export function SignInForm() {
  const signIn = useSignIn();
  const error = signIn.error;
  expectTrue<Equal<typeof error, StackkitError | null>>();
  // A second factor: the attempt code is typed, no cast.
  const attemptCode: string | undefined = isKnownError(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")
    ? error.details?.attempt_code
    : undefined;
  const wrongPassword = isKnownError(error, "EMAIL_PASSWORD_MISMATCH");
  // @ts-expect-error: not a code of the catalogue
  isKnownError(error, "EMAIL_PASSWORD_MISSMATCH");
  return (
    <p>
      {attemptCode} {wrongPassword ? "Wrong e-mail or password." : error?.message}
    </p>
  );
}

export function UserQueryError() {
  const user = useUserQuery({ or: "throw" });
  expectTrue<Equal<typeof user.error, StackkitError | null>>();
  const teams = useQuery(teamsQueryOptions(app));
  expectTrue<Equal<typeof teams.error, StackkitError | null>>();
  const suspended = useSuspenseQuery(teamsQueryOptions(app));
  expectTrue<Equal<typeof suspended.error, StackkitError | null>>();
  const notSignedIn = isStackError(user.error, "UserNotSignedInError");
  const role: KnownErrors["TeamNotFound"] | null = isKnownError(teams.error, "TEAM_NOT_FOUND") ? teams.error : null;
  return <p>{notSignedIn ? "Sign in first." : (role?.message ?? null)}</p>;
}

/** The option types in stackkit/react's signatures are exported by stackkit. */
export function optionTypesComeFromTheRuntimeEntry(
  update: UserUpdateOptions,
  channel: ContactChannelCreateOptions,
  channelUpdate: ContactChannelUpdateOptions,
  team: TeamCreateOptions,
  teamUpdate: TeamUpdateOptions,
  profile: TeamMemberProfileUpdateOptions,
  apiKey: ApiKeyCreationOptions<"user">,
  connected: ConnectedAccountOptions,
): void {
  expectTrue<Equal<Parameters<ReturnType<typeof useUpdateUser>["mutate"]>[0], UserUpdateOptions>>();
  expectTrue<Equal<Parameters<ReturnType<typeof useCreateContactChannel>["mutate"]>[0], ContactChannelCreateOptions>>();
  expectTrue<Equal<Parameters<ReturnType<typeof useCreateTeam>["mutate"]>[0], TeamCreateOptions>>();
  console.info(update, channel, channelUpdate, team, teamUpdate, profile, apiKey, connected);
}
