import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { ApiErrorAlert } from "../../../components/ui/api-error-alert";
import { FormField } from "../../../components/ui/form-field";
import { QueryState } from "../../../components/ui/query-state";
import { fieldErrors } from "../../../lib/api-client";
import type { Team } from "../../../lib/api/types";
import { useCreateTeam } from "../api/create-team";
import { useTeams } from "../api/list-teams";

interface TeamMenuProps {
  current: Team;
  /** Switch the session to another team (the caller refetches everything). */
  onSwitch: (teamId: number) => void;
  switching: boolean;
  switchError: unknown;
}

/** The team the session acts in; opens a list of the user's teams and a "New team" form. */
export function TeamMenu({ current, onSwitch, switching, switchError }: TeamMenuProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  function closeOnEscape(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "Escape" || !open) return;
    setOpen(false);
    toggleRef.current?.focus();
  }

  return (
    <div className="team-menu" onKeyDown={closeOnEscape}>
      <button
        ref={toggleRef}
        type="button"
        className="button button-small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        <span className="muted">Team:</span> <span className="team">{current.name}</span>
      </button>
      {open ? (
        <div id={panelId} className="menu-panel">
          <TeamList current={current} onSwitch={onSwitch} switching={switching} />
          {switchError ? <ApiErrorAlert error={switchError} title="Could not switch teams" /> : null}
          <NewTeam onCreated={onSwitch} />
        </div>
      ) : null}
    </div>
  );
}

function TeamList({ current, onSwitch, switching }: Omit<TeamMenuProps, "switchError">) {
  const teams = useTeams();
  return (
    <QueryState isPending={teams.isPending} error={teams.error} label="your teams">
      <ul className="menu-list" aria-label="Your teams">
        {(teams.data?.items ?? []).map((team) => (
          <li key={team.id}>
            {team.id === current.id ? (
              <span>
                <strong>{team.name}</strong> <span className="muted small">(current)</span>
              </span>
            ) : (
              <button
                type="button"
                className="button button-small"
                disabled={switching}
                onClick={() => onSwitch(team.id)}
              >
                Switch to {team.name}
              </button>
            )}{" "}
            <span className="tag">{team.role}</span>
          </li>
        ))}
      </ul>
    </QueryState>
  );
}

/** "New team": creates a team owned by the user, then switches to it. */
function NewTeam({ onCreated }: { onCreated: (teamId: number) => void }) {
  const [adding, setAdding] = useState(false);
  const [name, setName] = useState("");
  const createMutation = useCreateTeam();
  const errors = fieldErrors(createMutation.error, ["name"]);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    createMutation.mutate({ name: name.trim() }, { onSuccess: (team) => onCreated(team.id) });
  }

  if (!adding) {
    return (
      <button type="button" className="button button-small" onClick={() => setAdding(true)}>
        New team
      </button>
    );
  }
  return (
    <form className="form" aria-label="New team" onSubmit={handleSubmit}>
      {createMutation.error ? <ApiErrorAlert error={createMutation.error} inlineFields={["name"]} /> : null}
      <FormField label="Team name" errors={errors.name} hint="You become its owner and switch to it.">
        {(control) => (
          <input
            {...control}
            required
            maxLength={120}
            autoFocus
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </FormField>
      <div className="button-row">
        <button type="submit" className="button button-primary button-small" disabled={createMutation.isPending}>
          Create team
        </button>
        <button type="button" className="button button-small" onClick={() => setAdding(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
