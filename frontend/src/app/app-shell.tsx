import { useState } from "react";
import { NavLink, Outlet, useLocation, useNavigation } from "react-router";
import { ApiErrorAlert } from "../components/ui/api-error-alert";
import { useSession } from "../features/auth/api/get-session";
import { useLogout } from "../features/auth/api/logout";
import { useSwitchTeam } from "../features/auth/api/switch-team";
import { useHealth } from "../features/system/api/get-health";
import { TeamMenu } from "../features/teams/components/team-menu";
import { isOwner } from "../lib/roles";

const NAV = [
  { to: "/", label: "Dashboard", end: true, ownersOnly: false },
  { to: "/runs", label: "Runs", end: false, ownersOnly: false },
  { to: "/results", label: "Results", end: false, ownersOnly: false },
  { to: "/compare", label: "Compare", end: false, ownersOnly: false },
  { to: "/curves", label: "Curves", end: false, ownersOnly: false },
  { to: "/history", label: "History", end: false, ownersOnly: false },
  { to: "/regressions", label: "Regressions", end: false, ownersOnly: false },
  { to: "/plans", label: "Plans", end: false, ownersOnly: false },
  { to: "/schedules", label: "Schedules", end: false, ownersOnly: false },
  { to: "/planner", label: "Planner", end: false, ownersOnly: false },
  { to: "/targets", label: "Targets", end: false, ownersOnly: false },
  { to: "/hosts", label: "Hosts", end: false, ownersOnly: false },
  { to: "/team", label: "Team", end: false, ownersOnly: false },
  { to: "/settings/tokens", label: "Tokens", end: false, ownersOnly: true },
  { to: "/settings/webhooks", label: "Webhooks", end: false, ownersOnly: true },
  { to: "/audit", label: "Audit", end: false, ownersOnly: true },
];

/** Navigation, the team and who is signed in, and the page. */
export function AppShell() {
  const session = useSession().data;
  const health = useHealth();
  const switchMutation = useSwitchTeam();
  const logoutMutation = useLogout();
  const owner = isOwner(session?.role);
  // Narrow screens: the navigation folds behind a menu button, and folds again after a choice.
  const { pathname } = useLocation();
  // While the next page's code loads, the current one stays, marked busy.
  const loading = useNavigation().state === "loading";
  const [menu, setMenu] = useState({ open: false, at: pathname });
  const menuOpen = menu.open && menu.at === pathname;
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">storbench</span>
        <button
          type="button"
          className="button button-small nav-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenu({ open: !menuOpen, at: pathname })}
        >
          Menu
        </button>
        <nav id="main-nav" aria-label="Main" className={menuOpen ? "nav-open" : undefined}>
          <ul>
            {NAV.filter((item) => owner || !item.ownersOnly).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          {session ? (
            <>
              <TeamMenu
                // A new team is a new menu: closed, with nothing of the previous one.
                key={session.team.id}
                current={session.team}
                onSwitch={(teamId) => switchMutation.mutate(teamId)}
                switching={switchMutation.isPending}
                switchError={switchMutation.error}
              />
              <span className="email">{session.email}</span>
              <span className="tag" title="Your role in this team">
                {session.role}
              </span>
            </>
          ) : null}
          <NavLink to="/settings/account">Account</NavLink>
          <button
            type="button"
            className="button button-small"
            disabled={logoutMutation.isPending}
            onClick={() => logoutMutation.mutate()}
          >
            Sign out
          </button>
        </div>
        {logoutMutation.error ? <ApiErrorAlert error={logoutMutation.error} title="Could not sign out" /> : null}
      </header>
      {/* Keyed by team: a switch starts every page afresh, one-time secrets and drafts included. */}
      <main id="main" className="page" key={session?.team.id} aria-busy={loading}>
        <Outlet />
      </main>
      <footer className="footer muted small">
        {health.data ? `storbench ${health.data.version} · ${health.data.mode}` : "storbench"}
      </footer>
    </div>
  );
}
