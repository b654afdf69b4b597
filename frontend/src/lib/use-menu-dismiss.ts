import { useEffect, useState, type RefObject } from "react";

/**
 * A disclosure menu (<details>) that closes as menus do: on a click or tap outside it, and on
 * Escape (focus then returns to its button). Listens only while open. Returns the onToggle
 * handler to put on the <details>.
 */
export function useMenuDismiss(ref: RefObject<HTMLDetailsElement | null>): (event: { currentTarget: HTMLDetailsElement }) => void {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    function onPointerDown(event: Event) {
      const menu = ref.current;
      if (menu && !menu.contains(event.target as Node)) menu.open = false;
    }
    function onKeyDown(event: KeyboardEvent) {
      const menu = ref.current;
      if (event.key !== "Escape" || !menu?.open) return;
      const hadFocus = menu.contains(document.activeElement);
      menu.open = false;
      if (hadFocus) menu.querySelector("summary")?.focus();
    }
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open, ref]);
  return (event) => setOpen(event.currentTarget.open);
}
