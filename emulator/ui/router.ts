// The page's place is in its address's fragment (`#/users/<id>`, `#/emails?to=ada`), so that the
// emulator serves one document for every view, a view can be linked to, and Back works.
import { useEffect, useState } from "react";

export interface Route {
  /** The path's segments: `["users", "<id>"]`. */
  readonly parts: readonly string[];
  readonly params: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const [path = "", search = ""] = hash.replace(/^#/, "").split("?", 2);
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { parts: parts.length === 0 ? ["users"] : parts, params: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  return route;
}

/** The fragment of a view: `href("users", id)` is `#/users/<id>`. */
export function href(...parts: string[]): string {
  return `#/${parts.map(encodeURIComponent).join("/")}`;
}

export function go(...parts: string[]): void {
  location.hash = href(...parts);
}
