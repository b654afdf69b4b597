// Lists a team grows (schedules, webhooks, storage classes) come in pages of at most MAX_PAGE
// rows. Where the SPA shows or picks from the whole list, it asks for every page in turn.

import { apiRequest } from "./api-client";

/** The largest page those lists give (the API's page_params max_limit). */
export const MAX_PAGE = 500;

interface Paged {
  items: unknown[];
  total: number;
}

/** Every item of a paged list: the first answer, with the items of all its pages. */
export async function fetchAllPages<List extends Paged>(
  path: string,
  { signal, pageSize = MAX_PAGE }: { signal?: AbortSignal; pageSize?: number } = {},
): Promise<List> {
  const first = await apiRequest<List>(path, { query: { limit: pageSize, offset: 0 }, signal });
  const items = [...first.items];
  while (items.length < first.total) {
    const page = await apiRequest<List>(path, { query: { limit: pageSize, offset: items.length }, signal });
    if (page.items.length === 0) break; // the list shrank meanwhile
    items.push(...page.items);
  }
  return { ...first, items };
}
