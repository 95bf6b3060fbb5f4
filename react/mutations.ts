// Mutations of the signed-in user and of the session: sign-in, sign-up,
// sign-out, profile, password, contact channels, sessions. Each invalidates the
// reads it changes; session changes bring all user data in step (session-sync.ts).
import type { UseMutationResult } from "@tanstack/react-query";
import {
  Result,
  type ContactChannel,
  type ContactChannelCreateOptions,
  type ContactChannelUpdateOptions,
  type CurrentUser,
  type OperationId,
  type StackkitError,
  type UserUpdateOptions,
} from "../runtime/index.js";
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

export interface CredentialSignInVariables {
  readonly email: string;
  readonly password: string;
  /** Stay on this page instead of going to the after-sign-in page. */
  readonly noRedirect?: boolean;
}

/**
 * Signs in with e-mail and password. An expected failure is the mutation's
 * `error`: KnownErrors.EmailPasswordMismatch, or MultiFactorAuthenticationRequired
 * (its details carry the attempt code for signInWithMfa).
 */
export function useSignIn(): UseMutationResult<void, StackkitError, CredentialSignInVariables> {
  return sessionChange("useSignIn()", async ({ app }, variables: CredentialSignInVariables) => {
    Result.orThrow(await app.signInWithCredential(variables));
  });
}

export interface CredentialSignUpVariables extends CredentialSignInVariables {
  readonly verificationCallbackUrl?: string;
}

/** Signs up with e-mail and password; UserWithEmailAlreadyExists or PasswordRequirementsNotMet is the `error`. */
export function useSignUp(): UseMutationResult<void, StackkitError, CredentialSignUpVariables> {
  return sessionChange("useSignUp()", async ({ app }, variables: CredentialSignUpVariables) => {
    Result.orThrow(await app.signUpWithCredential(variables));
  });
}

/** Signs out (then goes to the after-sign-out page, or `redirectUrl`). `mutate()` needs no variables. */
export function useSignOut(): UseMutationResult<void, StackkitError, { readonly redirectUrl?: string | URL } | void> {
  return sessionChange("useSignOut()", async ({ app }, variables: { readonly redirectUrl?: string | URL } | void) => {
    await app.signOut(variables ?? {});
  });
}

/** Deletes the signed-in user (when the project allows it); the session ends. */
export function useDeleteUser(): UseMutationResult<void, StackkitError, void> {
  return sessionChange("useDeleteUser()", async (context) => {
    await (await user(context, "useDeleteUser()")).delete();
  });
}

/** Changes the user's profile fields (`user.update`). */
export function useUpdateUser(): UseMutationResult<void, StackkitError, UserUpdateOptions> {
  return useStackMutation("useUpdateUser()", {
    run: async (context, update: UserUpdateOptions) => (await user(context, "useUpdateUser()")).update(update),
    changes: () => ["getCurrentUser"],
  });
}

/** Changes the password; PasswordConfirmationMismatch or PasswordRequirementsNotMet is the `error`. */
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

/** Sets a password for a user without one; the user's hasPassword changes. */
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

export function useCreateContactChannel(): UseMutationResult<ContactChannel, StackkitError, ContactChannelCreateOptions> {
  return useStackMutation("useCreateContactChannel()", {
    run: async (context, options: ContactChannelCreateOptions) =>
      (await user(context, "useCreateContactChannel()")).createContactChannel(options),
    changes: (_, options) => channelChanges(options?.isPrimary === true),
  });
}

export interface ContactChannelUpdateVariables {
  readonly channel: ContactChannel;
  readonly update: ContactChannelUpdateOptions;
}

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

export function useDeleteContactChannel(): UseMutationResult<void, StackkitError, ContactChannel> {
  const hook = "useDeleteContactChannel()";
  return useStackMutation(hook, {
    run: (_, channel: ContactChannel) => requireObject(channel, "delete", hook, "a contact channel from useContactChannels()").delete(),
    changes: (_, channel) => channelChanges(channel.isPrimary),
  });
}

/** Signs out one other session of the user (the current one: use useSignOut). */
export function useRevokeSession(): UseMutationResult<void, StackkitError, string> {
  return useStackMutation("useRevokeSession()", {
    run: async (context, sessionId: string) => (await user(context, "useRevokeSession()")).revokeSession(sessionId),
    changes: () => ["listSessions"],
  });
}
