// The signed-in user as JSON, for the app's own scripts. Not behind the
// middleware: an expired access token is refreshed here, and the new cookie
// is written through `cookies()` and so reaches the browser with this answer.
import { currentUser } from "#lib/stack";

export async function GET() {
  const user = await currentUser();
  return Response.json({ user: user && { id: user.id, primaryEmail: user.primaryEmail } });
}
