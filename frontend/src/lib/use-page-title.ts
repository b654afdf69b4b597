import { useEffect } from "react";

export const SITE_NAME = "storbench";

/** The document title for a page: "<Page> · storbench" (the site name alone for an empty title). */
export function pageTitle(title: string): string {
  const page = title.trim();
  return page ? `${page} · ${SITE_NAME}` : SITE_NAME;
}

/** Sets document.title to "<title> · storbench" while the calling page is shown. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = pageTitle(title);
    return () => {
      document.title = previous;
    };
  }, [title]);
}
