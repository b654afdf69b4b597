/** Said where a viewer would otherwise find a form they may not use. */
export function ViewerNote({ action }: { action: string }) {
  return (
    <p className="note muted small">
      Your role in this team is <strong>viewer</strong>: you can look at everything but not {action}. A team owner can
      make you a member.
    </p>
  );
}
