import { CopyButton } from "./copy-button";

/** A shell command to paste, with its own copy button. */
export function CommandBlock({ label, command, copyLabel }: { label: string; command: string; copyLabel: string }) {
  return (
    <div>
      <pre className="code-block" aria-label={label}>
        <code>{command}</code>
      </pre>
      <CopyButton text={command} label={copyLabel} />
    </div>
  );
}
