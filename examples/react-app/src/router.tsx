// A router of a few lines on the history API: the app needs paths and query
// parameters, links that do not reload, and a navigate() the Stack app can call
// for its redirects (redirectMethod: { navigate }). A navigation is a React
// transition: the page on screen stays until the next one has what it needs
// (the signed-in user, say), instead of flashing a loading line in between.
import {
  createContext,
  startTransition,
  useContext,
  useEffect,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from "react";

const CHANGE = "example:navigate";

function subscribe(onChange: () => void): () => void {
  window.addEventListener("popstate", onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener("popstate", onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

const currentHref = () => window.location.pathname + window.location.search;

const LocationContext = createContext<string | null>(null);

/** Holds the current path and query for useLocation; put it once around the app. */
export function Router({ children }: { readonly children: ReactNode }) {
  const [href, setHref] = useState(currentHref);
  useEffect(() => {
    const onChange = () => startTransition(() => setHref(currentHref()));
    const unsubscribe = subscribe(onChange);
    // A navigation between the first render and this effect is not missed.
    onChange();
    return unsubscribe;
  }, []);
  return <LocationContext.Provider value={href}>{children}</LocationContext.Provider>;
}

/** Goes to `to` (a path of this app, or a URL on its origin) without reloading. */
export function navigate(to: string, options: { readonly replace?: boolean } = {}): void {
  const url = new URL(to, window.location.href);
  if (url.origin !== window.location.origin) {
    window.location.assign(url.href);
    return;
  }
  const relative = url.pathname + url.search + url.hash;
  if (options.replace) window.history.replaceState(null, "", relative);
  else window.history.pushState(null, "", relative);
  window.scrollTo(0, 0);
  window.dispatchEvent(new Event(CHANGE));
}

/** The current path and query; re-renders on every navigation. */
export function useLocation(): { readonly pathname: string; readonly search: URLSearchParams } {
  const href = useContext(LocationContext);
  if (href === null) throw new Error("useLocation needs the <Router> around the app (main.tsx).");
  const url = new URL(href, "http://app.invalid");
  return { pathname: url.pathname, search: url.searchParams };
}

/** One query parameter of the current page. */
export function useSearchParam(name: string): string | null {
  return useLocation().search.get(name);
}

/** An <a> that navigates in the app (ctrl/cmd-click still opens a new tab). */
export function Link({ href, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly href: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={follow} {...rest} />;
}
