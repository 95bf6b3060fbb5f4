// Mutations of the signed-in user and of the session: sign-in, sign-up,
// sign-out, profile, password, contact channels, sessions. Each invalidates the
// reads it changes; session changes bring all user data in step (session-sync.ts).
import type { UseMutationResult } from "@tanstack/react-query";
import type {
  ContactChannel,
  ContactChannelCreateOptions,
  ContactChannelUpdateOptions,
  CurrentUser,
  OperationId,
  StackkitError,
  UserUpdateOptions,
} from "../runtime/index.js";
import { Result } from "../runtime/app/result.js";
import { requireObject, useStackMutation, type MutationContext } from "./mutation-core.js";
import { ensureSessionSync, sessionSyncCount } from "./session-sync.js";
import { requireUser } from "./user.js";

const user = (context: MutationContext, hook: string): Promise<CurrentUser> => requireUser(context.app, context.client, hook);

/**
 * A change of session: runs `change`, then waits until user data follows the
 * new session (the store's change event normally started that; see
 * ensureSessionSync), so that once the mutation succeeds every reader shows
 * the new user, or nobody after a sign-out.
 */
function sessionChange<TVariables, TData>(hook: string, change: (context: MutationContext, variables: TVariables) => Promise<TData>) {
  return useStackMutation<TVariables, TData>(hook, {
    run: async (context, variables) => {
      const before = sessionSyncCount(context.client);
      const data = await change(context, variables);
      await ensureSessionSync(context.client, before);
      return data;
    },
    changes: () => [],
  });
}

/** What {@link useSignIn}'s `mutate` takes: the e-mail and password. */
export interface CredentialSignInVariables {
  readonly email: string;
  readonly password: string;
  /** Stay on this page instead of going to the after-sign-in page. */
  readonly noRedirect?: boolean;
}

/**
 * Signs in with e-mail and password. An expected failure is the mutation's
 * `error`: KnownErrors.EmailPasswordMismatch, or MultiFactorAuthenticationRequired
 * (its details carry the attempt code for signInWithMfa). Calls `POST /auth/password/sign-in`; once it succeeds
 * every reader shows the new user.
 *
 * @example
 * ```tsx
 * const signIn = useSignIn();
 * const submit = (email: string, password: string) =>
 *   signIn.mutate({ email, password, noRedirect: true }, { onSuccess: () => navigate("/dashboard") });
 * // signIn.error, e.g. KnownErrors.EmailPasswordMismatch, is shown next to the form
 * return <button disabled={signIn.isPending} onClick={() => submit(email, password)}>Sign in</button>;
 * ```
 */
export function useSignIn(): UseMutationResult<void, StackkitError, CredentialSignInVariables> {
  return sessionChange("useSignIn()", async ({ app }, variables: CredentialSignInVariables) => {
    Result.orThrow(await app.signInWithCredential(variables));
  });
}

/** What {@link useSignUp}'s `mutate` takes: the e-mail and password, and where the verification e-mail's link goes. */
export interface CredentialSignUpVariables extends CredentialSignInVariables {
  readonly verificationCallbackUrl?: string;
}

/**
 * Signs up with e-mail and password (`POST /auth/password/sign-up`) and signs the new user in;
 * UserWithEmailAlreadyExists or PasswordRequirementsNotMet is the `error`.
 *
 * @example
 * ```tsx
 * const signUp = useSignUp();
 * const onSubmit = () =>
 *   signUp.mutate({ email, password, verificationCallbackUrl: `${location.origin}/handler/email-verification` });
 * if (signUp.error) return <p>{signUp.error.message}</p>;
 * return <button disabled={signUp.isPending} onClick={onSubmit}>Create account</button>;
 * ```
 */
export function useSignUp(): UseMutationResult<void, StackkitError, CredentialSignUpVariables> {
  return sessionChange("useSignUp()", async ({ app }, variables: CredentialSignUpVariables) => {
    Result.orThrow(await app.signUpWithCredential(variables));
  });
}

/**
 * Signs out (then goes to the after-sign-out page, or `redirectUrl`). `mutate()` needs no variables; once it
 * succeeds every useUser reader shows nobody.
 *
 * @example
 * ```tsx
 * const signOut = useSignOut();
 * return (
 *   <button disabled={signOut.isPending} onClick={() => signOut.mutate({ redirectUrl: "/goodbye" })}>
 *     Sign out
 *   </button>
 * );
 * ```
 */
export function useSignOut(): UseMutationResult<void, StackkitError, { readonly redirectUrl?: string | URL } | void> {
  return sessionChange("useSignOut()", async ({ app }, variables: { readonly redirectUrl?: string | URL } | void) => {
    await app.signOut(variables ?? {});
  });
}

/**
 * Deletes the signed-in user (`DELETE /users/me`, when the project allows it); the session ends. Its `error` is a
 * UserNotSignedInError when nobody is signed in.
 *
 * @example
 * ```tsx
 * const deleteUser = useDeleteUser();
 * const onConfirm = () => deleteUser.mutate(undefined, { onSuccess: () => navigate("/") });
 * return <button disabled={deleteUser.isPending} onClick={onConfirm}>Delete my account</button>;
 * ```
 */
export function useDeleteUser(): UseMutationResult<void, StackkitError, void> {
  return sessionChange("useDeleteUser()", async (context) => {
    await (await user(context, "useDeleteUser()")).delete();
  });
}

/**
 * Changes the user's profile fields (`user.update`, `PATCH /users/me`), then refreshes the user.
 *
 * @example
 * ```tsx
 * const updateUser = useUpdateUser();
 * const save = (displayName: string) => updateUser.mutate({ displayName }, { onSuccess: () => setSaved(true) });
 * return <button disabled={updateUser.isPending} onClick={() => save(name.trim())}>Save</button>;
 * ```
 */
export function useUpdateUser(): UseMutationResult<void, StackkitError, UserUpdateOptions> {
  return useStackMutation("useUpdateUser()", {
    run: async (context, update: UserUpdateOptions) => (await user(context, "useUpdateUser()")).update(update),
    changes: () => ["getCurrentUser"],
  });
}

/**
 * Changes the password (`POST /auth/password/update`); PasswordConfirmationMismatch (a wrong old password) or
 * PasswordRequirementsNotMet is the `error`.
 *
 * @example
 * ```tsx
 * const change = useUpdatePassword();
 * const submit = () => change.mutate({ oldPassword, newPassword }, { onSuccess: () => setDone(true) });
 * if (change.error) return <p>{change.error.message}</p>;
 * return <button disabled={change.isPending} onClick={submit}>Change password</button>;
 * ```
 */
export function useUpdatePassword(): UseMutationResult<
  void,
  StackkitError,
  { readonly oldPassword: string; readonly newPassword: string }
> {
  return useStackMutation("useUpdatePassword()", {
    run: async (context, options: { readonly oldPassword: string; readonly newPassword: string }) => {
      const error = await (await user(context, "useUpdatePassword()")).updatePassword(options);
      if (error) throw error;
    },
    changes: () => [],
  });
}

/**
 * Sets a password for a user without one (`POST /auth/password/set`); the user's hasPassword changes.
 * PasswordRequirementsNotMet is the `error`.
 *
 * @example
 * ```tsx
 * const user = useUser({ or: "redirect" });
 * const set = useSetPassword();
 * if (user.hasPassword) return null;
 * return <button disabled={set.isPending} onClick={() => set.mutate({ password })}>Set password</button>;
 * ```
 */
export function useSetPassword(): UseMutationResult<void, StackkitError, { readonly password: string }> {
  return useStackMutation("useSetPassword()", {
    run: async (context, options: { readonly password: string }) => {
      const error = await (await user(context, "useSetPassword()")).setPassword(options);
      if (error) throw error;
    },
    changes: () => ["getCurrentUser"],
  });
}

/** The user's primary e-mail is part of the user: a change to the primary channel changes the user too. */
const channelChanges = (touchesPrimary: boolean): OperationId[] =>
  touchesPrimary ? ["listContactChannels", "getCurrentUser"] : ["listContactChannels"];

/**
 * Adds a contact channel (an e-mail address) to the signed-in user (`POST /contact-channels`); the mutation's
 * data is the new ContactChannel, and the user's channels (and the user, for a primary one) are refreshed.
 *
 * @example
 * ```tsx
 * const add = useCreateContactChannel();
 * const submit = () =>
 *   add.mutate({ value: email.trim(), type: "email", usedForAuth: false }, { onSuccess: () => setEmail("") });
 * return <button disabled={add.isPending} onClick={submit}>Add e-mail</button>;
 * ```
 */
export function useCreateContactChannel(): UseMutationResult<ContactChannel, StackkitError, ContactChannelCreateOptions> {
  return useStackMutation("useCreateContactChannel()", {
    run: async (context, options: ContactChannelCreateOptions) =>
      (await user(context, "useCreateContactChannel()")).createContactChannel(options),
    changes: (_, options) => channelChanges(options?.isPrimary === true),
  });
}

/** What {@link useUpdateContactChannel}'s `mutate` takes: the channel and its changes. */
export interface ContactChannelUpdateVariables {
  readonly channel: ContactChannel;
  readonly update: ContactChannelUpdateOptions;
}

/**
 * Changes a contact channel from useContactChannels (`PATCH /contact-channels/{user_id}/{contact_channel_id}`),
 * e.g. makes it primary; takes `{ channel, update }`.
 *
 * @example
 * ```tsx
 * const update = useUpdateContactChannel();
 * return (
 *   <button disabled={update.isPending} onClick={() => update.mutate({ channel, update: { isPrimary: true } })}>
 *     Make primary
 *   </button>
 * );
 * ```
 */
export function useUpdateContactChannel(): UseMutationResult<void, StackkitError, ContactChannelUpdateVariables> {
  const hook = "useUpdateContactChannel()";
  return useStackMutation(hook, {
    run: (_, variables: ContactChannelUpdateVariables) =>
      requireObject(variables?.channel, "update", hook, "{ channel, update } with a contact channel from useContactChannels()").update(
        variables.update,
      ),
    changes: (_, { channel, update }) => channelChanges(channel.isPrimary || update?.isPrimary === true),
  });
}

/**
 * Deletes a contact channel from useContactChannels (`DELETE /contact-channels/{user_id}/{contact_channel_id}`);
 * takes the channel itself.
 *
 * @example
 * ```tsx
 * const remove = useDeleteContactChannel();
 * return (
 *   <button disabled={remove.isPending} onClick={() => remove.mutate(channel)}>
 *     Remove {channel.value}
 *   </button>
 * );
 * ```
 */
export function useDeleteContactChannel(): UseMutationResult<void, StackkitError, ContactChannel> {
  const hook = "useDeleteContactChannel()";
  return useStackMutation(hook, {
    run: (_, channel: ContactChannel) => requireObject(channel, "delete", hook, "a contact channel from useContactChannels()").delete(),
    changes: (_, channel) => channelChanges(channel.isPrimary),
  });
}

/**
 * Signs out one other session of the user (`DELETE /auth/sessions/{session_id}`; the current one: use useSignOut).
 * Takes the session's id, and refreshes useActiveSessions.
 *
 * @example
 * ```tsx
 * const sessions = useActiveSessions();
 * const revoke = useRevokeSession();
 * return sessions
 *   .filter((session) => !session.isCurrentSession)
 *   .map((session) => <button key={session.id} onClick={() => revoke.mutate(session.id)}>Sign out</button>);
 * ```
 */
export function useRevokeSession(): UseMutationResult<void, StackkitError, string> {
  return useStackMutation("useRevokeSession()", {
    run: async (context, sessionId: string) => (await user(context, "useRevokeSession()")).revokeSession(sessionId),
    changes: () => ["listSessions"],
  });
}
