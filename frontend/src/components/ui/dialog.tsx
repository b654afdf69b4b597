import { useEffect, useRef, type ReactNode } from "react";

interface DialogProps {
  /** The dialog's accessible name, also its heading. */
  title: string;
  /** Escape or the backdrop: what closing without choosing does. */
  onClose: () => void;
  children: ReactNode;
}

/**
 * A modal dialog over the page: for a question or a one-time secret that needs more room than the
 * table cell whose button opened it. Focus moves into it; Escape closes it.
 */
export function Dialog({ title, onClose, children }: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    return () => opener?.focus?.();
  }, []);
  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key === "Escape") onClose();
        }}
      >
        <h2 className="dialog-title">{title}</h2>
        {children}
      </div>
    </div>
  );
}
