// POST from the sign-out button: ends the session on the service; the SDK
// clears the token store, which deletes the token cookies through `cookies()`.
import { NextResponse } from "next/server";
import { currentUser } from "#lib/stack";

export async function POST(request: Request) {
  const user = await currentUser();
  await user?.signOut();
  return NextResponse.redirect(new URL("/", request.url), 303);
}
