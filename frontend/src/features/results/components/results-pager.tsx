import { formatCount } from "../../../lib/format";

interface ResultsPagerProps {
  /** 0 for the newest page; null when the page was opened from a link (its position is not known). */
  pageIndex: number | null;
  pageSize: number;
  shown: number;
  total: number;
  totalIsEstimate: boolean;
  hasOlder: boolean;
  onNewest: () => void;
  onNewer: () => void;
  onOlder: () => void;
}

/** Newest/Newer/Older over keyset pages; renders nothing when one page holds every match. */
export function ResultsPager({
  pageIndex,
  pageSize,
  shown,
  total,
  totalIsEstimate,
  hasOlder,
  onNewest,
  onNewer,
  onOlder,
}: ResultsPagerProps) {
  const atNewest = pageIndex === 0;
  if (atNewest && !hasOlder) return null;
  const of = totalIsEstimate ? `about ${formatCount(total)}` : formatCount(total);
  const first = pageIndex === null ? null : pageIndex * pageSize + 1;
  const position = first === null ? `${formatCount(shown)} older results of ${of}` : `${formatCount(first)}–${formatCount(first + shown - 1)} of ${of}`;
  return (
    <nav className="pager" aria-label="Result pages">
      <button type="button" className="button button-small" disabled={atNewest} onClick={onNewest}>
        Newest
      </button>
      <button type="button" className="button button-small" disabled={atNewest || pageIndex === null} onClick={onNewer}>
        Newer
      </button>
      <span className="small">{position}</span>
      <button type="button" className="button button-small" disabled={!hasOlder} onClick={onOlder}>
        Older
      </button>
    </nav>
  );
}
