import { useState, type ReactNode } from "react";

interface ConfirmActionProps {
  /** Visible text of the first button, e.g. "Remove". */
  label: string;
  /** Its accessible name when the text alone is ambiguous in a list, e.g. "Remove bob@example.com". */
  name?: string;
  /** What will happen, asked before doing it. */
  question: ReactNode;
  /** Accessible name of the confirmation group. */
  groupLabel: string;
  confirmLabel: string;
  disabled?: boolean;
  onConfirm: () => void;
}

/** A destructive action asked once more in place (no modal), like the destructive-writes switch. */
export function ConfirmAction({ label, name, question, groupLabel, confirmLabel, disabled, onConfirm }: ConfirmActionProps) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button
        type="button"
        className="button button-small"
        aria-label={name}
        disabled={disabled}
        onClick={() => setConfirming(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <div className="confirm-box" role="group" aria-label={groupLabel}>
      <p className="small">{question}</p>
      <div className="button-row">
        <button
          type="button"
          className="button button-small button-danger"
          disabled={disabled}
          onClick={() => {
            setConfirming(false);
            onConfirm();
          }}
        >
          {confirmLabel}
        </button>
        <button type="button" className="button button-small" onClick={() => setConfirming(false)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
