import { useState } from "react";

/** Copies text to the clipboard and says so; silent where the clipboard is unavailable (http). */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button type="button" className="button" onClick={() => void copy()}>
      {copied ? "Copied" : label}
    </button>
  );
}
