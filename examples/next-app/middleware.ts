// Guards /dashboard before it renders. The access token is verified here,
// without asking the service; an expired one is refreshed, the new cookie goes
// to the browser with the answer, and the page behind gets the request with
// the new token (so it does not refresh again). Nobody signed in: to the
// sign-in page, which comes back here afterwards.
//
// A middleware runs on Next's edge runtime; getSessionFromRequest uses web
// APIs only. (Next 16 also accepts this file as proxy.ts, on Node.)
import { NextResponse, type NextRequest } from "next/server";
import { getSessionFromRequest } from "stackkit";
import { projectConfig } from "#lib/config";

export async function middleware(request: NextRequest) {
  const { session, setCookie, requestHeaders } = await getSessionFromRequest(request, projectConfig());
  let response: NextResponse;
  if (session) {
    response = requestHeaders ? NextResponse.next({ request: { headers: requestHeaders } }) : NextResponse.next();
  } else {
    const signIn = new URL("/sign-in", request.url);
    signIn.searchParams.set("after_auth_return_to", request.nextUrl.pathname + request.nextUrl.search);
    response = NextResponse.redirect(signIn);
  }
  // Also when redirecting: a session that ended has its cookies deleted.
  for (const line of setCookie) response.headers.append("set-cookie", line);
  return response;
}

export const config = { matcher: ["/dashboard/:path*"] };
