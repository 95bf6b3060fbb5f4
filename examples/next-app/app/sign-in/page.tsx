// The sign-in form. It posts to the route handler app/api/sign-in, which sets
// the token cookies; without JavaScript it works all the same.
export default async function SignIn({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { error, after_auth_return_to: returnTo } = await searchParams;
  return (
    <form method="post" action="/api/sign-in" style={{ display: "grid", gap: "0.5rem", maxWidth: "20rem" }}>
      <h1>Sign in</h1>
      {error ? <p role="alert">Wrong e-mail or password.</p> : null}
      <input type="hidden" name="after_auth_return_to" value={typeof returnTo === "string" ? returnTo : "/"} />
      <label>
        E-mail <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password <input name="password" type="password" autoComplete="current-password" required />
      </label>
      <button type="submit">Sign in</button>
    </form>
  );
}
