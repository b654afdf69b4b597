/** Says so when a list shows only part of what the server has. */
export function ShownOf({ page, noun }: { page: { items: readonly unknown[]; total: number } | undefined; noun: string }) {
  if (!page || page.total <= page.items.length) return null;
  return (
    <p className="muted small">
      Showing {page.items.length} of {page.total} {noun}.
    </p>
  );
}
