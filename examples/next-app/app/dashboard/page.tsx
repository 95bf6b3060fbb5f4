// Behind the middleware: only a signed-in user gets here, with a current
// access token (the middleware refreshed it if needed). The check below covers
// a session that ends between the two.
import { redirect } from "next/navigation";
import { currentUser } from "#lib/stack";

export default async function Dashboard() {
  const user = await currentUser();
  if (!user) redirect("/sign-in?after_auth_return_to=%2Fdashboard");
  return (
    <>
      <h1>Dashboard</h1>
      <p data-testid="dashboard-user">{user.primaryEmail}</p>
      <p>
        User id <code>{user.id}</code>
      </p>
    </>
  );
}
