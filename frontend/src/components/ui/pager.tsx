/** Newer/Older paging over a list sorted newest first; renders nothing when one page holds it all. */
export function Pager({
  label,
  offset,
  pageSize,
  total,
  onOffsetChange,
}: {
  label: string;
  offset: number;
  pageSize: number;
  total: number;
  onOffsetChange: (offset: number) => void;
}) {
  if (total <= pageSize) return null;
  return (
    <nav className="pager" aria-label={label}>
      <button
        type="button"
        className="button button-small"
        disabled={offset === 0}
        onClick={() => onOffsetChange(Math.max(0, offset - pageSize))}
      >
        Newer
      </button>
      <span className="small">
        {Math.min(offset + 1, total)}–{Math.min(offset + pageSize, total)} of {total}
      </span>
      <button
        type="button"
        className="button button-small"
        disabled={offset + pageSize >= total}
        onClick={() => onOffsetChange(offset + pageSize)}
      >
        Older
      </button>
    </nav>
  );
}
