import { NavLink, Outlet } from "react-router";
import { useMe } from "../features/auth/api/get-me";
import { useHealth } from "../features/system/api/get-health";
import { clearToken } from "../lib/auth-token";

const NAV = [
  { to: "/", label: "Dashboard", end: true },
  { to: "/runs", label: "Runs", end: false },
  { to: "/results", label: "Results", end: false },
  { to: "/plans", label: "Plans", end: false },
  { to: "/targets", label: "Targets", end: false },
  { to: "/hosts", label: "Hosts", end: false },
];

/** Navigation, who is signed in, and the page. */
export function AppShell() {
  const me = useMe();
  const health = useHealth();
  return (
    <div className="shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">storbench</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="account">
          {me.data ? (
            <>
              <span className="team" title="Team">
                {me.data.team.name}
              </span>
              <span className="email">{me.data.email}</span>
              <span className="tag">{me.data.role}</span>
            </>
          ) : null}
          <button type="button" className="button button-small" onClick={() => clearToken()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="page">
        <Outlet />
      </main>
      <footer className="footer muted small">
        {health.data ? `storbench ${health.data.version} · ${health.data.mode}` : "storbench"}
      </footer>
    </div>
  );
}
