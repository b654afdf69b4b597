// One table for every credential people revoke (API tokens, enrollment tokens, invitations): a
// row per credential named in its header cell, its columns, and Revoke while it still works.

import type { ReactNode } from "react";
import { formatDateTime, formatRelativeTime } from "../../lib/format";
import { useNow } from "../../lib/use-now";
import { ApiErrorAlert } from "./api-error-alert";
import { ConfirmAction } from "./confirm-action";

export interface CredentialColumn<T> {
  header: string;
  /** The cell's content at `now` (ms since the epoch, refreshed every minute). */
  cell: (item: T, now: number) => ReactNode;
  numeric?: boolean;
}

export interface RevokeAction<T> {
  /** The Revoke button's accessible name on this row, e.g. "Revoke token nightly". */
  name: (item: T) => string;
  /** Asked in place before revoking; without it, the click revokes. */
  confirm?: { question: (item: T) => ReactNode; groupLabel: (item: T) => string; confirmLabel: string };
  pending: boolean;
  error: unknown;
  onRevoke: (item: T) => void;
}

interface CredentialTableProps<T extends { id: number }> {
  /** The table's accessible name. */
  caption: string;
  /** Shown instead of an empty table. */
  empty: string;
  items: T[];
  /** The row's header cell: what the credential is called (under `nameHeader`, "Name" by default). */
  name: (item: T) => ReactNode;
  nameHeader?: string;
  columns: CredentialColumn<T>[];
  /** Whether the credential still works (and so can be revoked) at `now`. */
  revocable: (item: T, now: number) => boolean;
  revoke: RevokeAction<T>;
}

/** A moment, or `empty` in grey when there is none ("never", "—"). */
export function DateTime({ iso, empty = "—" }: { iso: string | null | undefined; empty?: string }) {
  return iso ? <time dateTime={iso}>{formatDateTime(iso)}</time> : <span className="muted">{empty}</span>;
}

/** "3 minutes ago" (the exact moment on hover), or "never". */
export function LastUsed({ iso, now }: { iso: string | null | undefined; now: number }) {
  if (!iso) return <span className="muted">never</span>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso, now)}
    </time>
  );
}

function RevokeButton<T>({ item, revoke }: { item: T; revoke: RevokeAction<T> }) {
  if (revoke.confirm) {
    return (
      <ConfirmAction
        label="Revoke"
        name={revoke.name(item)}
        groupLabel={revoke.confirm.groupLabel(item)}
        question={revoke.confirm.question(item)}
        confirmLabel={revoke.confirm.confirmLabel}
        disabled={revoke.pending}
        onConfirm={() => revoke.onRevoke(item)}
      />
    );
  }
  return (
    <button
      type="button"
      className="button button-small"
      aria-label={revoke.name(item)}
      disabled={revoke.pending}
      onClick={() => revoke.onRevoke(item)}
    >
      Revoke
    </button>
  );
}

export function CredentialTable<T extends { id: number }>(props: CredentialTableProps<T>) {
  const { caption, empty, items, name, nameHeader = "Name", columns, revocable, revoke } = props;
  const now = useNow(60_000);
  if (items.length === 0) return <p className="muted">{empty}</p>;
  return (
    <>
      {revoke.error ? <ApiErrorAlert error={revoke.error} title="Could not revoke" /> : null}
      <table className="table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{nameHeader}</th>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <th scope="row">{name(item)}</th>
              {columns.map((column) => (
                <td key={column.header} className={column.numeric ? "num" : undefined}>
                  {column.cell(item, now)}
                </td>
              ))}
              <td>{revocable(item, now) ? <RevokeButton item={item} revoke={revoke} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
