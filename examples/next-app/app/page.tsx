// A server component reading the user from the request's cookies. It may
// refresh an expired access token for this render, but cannot write the new
// cookie (Next allows no cookie writes while rendering): /dashboard, behind the
// middleware, shows the other way.
import { currentUser } from "#lib/stack";

export default async function Home() {
  const user = await currentUser();
  if (!user) {
    return (
      <p data-testid="signed-out">
        Nobody is signed in. <a href="/sign-in">Sign in</a>
      </p>
    );
  }
  return (
    <>
      <p data-testid="signed-in">Signed in as {user.primaryEmail}</p>
      <form method="post" action="/api/sign-out">
        <button type="submit">Sign out</button>
      </form>
    </>
  );
}
