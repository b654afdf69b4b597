import type { Finding, SpecCheck } from "../../lib/api/types";
import { formatBandwidth } from "../../lib/format";

const VERDICTS = {
  meets: { text: "meets spec", word: "meets", badge: "badge-ok" },
  below: { text: "below spec", word: "below", badge: "badge-bad" },
  above: { text: "above spec — server cache suspected", word: "above", badge: "badge-warn" },
} as const;

function amount(value: number): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** A vendor's MB/s with our MiB/s beside it: "300 MB/s, 286 MiB/s"; other units as published. */
function published(value: number, unit: string): string {
  const text = `${amount(value)} ${unit}`;
  return unit === "MB/s" ? `${text}, ${formatBandwidth(value * 1e6)}` : text;
}

/** "meets spec (101% of 20,000 IOPS)", "below spec (80% of 300 MB/s, 286 MiB/s)". */
export function specCheckText(check: SpecCheck): string {
  const verdict = VERDICTS[check.verdict]?.text ?? check.verdict;
  return `${verdict} (${Math.round(check.percent)}% of ${published(check.expected, check.unit)})`;
}

function specCheckTitle(check: SpecCheck): string {
  const low = check.low !== null ? `, at least ${amount(check.low)}` : "";
  return `${check.direction} ${check.metric}: measured ${amount(check.measured)} ${check.unit}; the spec expects ${amount(check.expected)}${low} (${check.formula})`;
}

/** "below 80%": the verdict's one word and the percent of the spec, for a table cell. */
export function specCheckShortText(check: SpecCheck): string {
  return `${VERDICTS[check.verdict]?.word ?? check.verdict} ${Math.round(check.percent)}%`;
}

interface SpecCheckBadgesProps {
  checks: SpecCheck[];
  showDirection?: boolean;
  /** One word and a percent ("below 80%") where a table has no room; the whole sentence is in the
   * title and read out by screen readers. */
  short?: boolean;
}

/** One compact badge per spec check: how the measured figure compares with what the class promises. */
export function SpecCheckBadges({ checks, showDirection = false, short = false }: SpecCheckBadgesProps) {
  if (checks.length === 0) return null;
  return (
    <span className="badges">
      {checks.map((check, index) => {
        const prefix = showDirection ? `${check.direction} ${check.metric}: ` : "";
        const className = `badge ${VERDICTS[check.verdict]?.badge ?? "badge-muted"}`;
        if (short) {
          const whole = `${check.direction} ${check.metric}: ${specCheckText(check)}`;
          return (
            <span key={index} className={className} title={`${whole}. ${specCheckTitle(check)}`}>
              <span aria-hidden="true">
                {prefix}
                {specCheckShortText(check)}
              </span>
              <span className="sr-only">{whole}</span>
            </span>
          );
        }
        return (
          <span key={index} className={className} title={specCheckTitle(check)}>
            {prefix}
            {specCheckText(check)}
          </span>
        );
      })}
    </span>
  );
}

/** "2 findings", or nothing. */
export function FindingsCount({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return null;
  const worst = findings.some((f) => f.severity === "critical") ? "badge-bad" : findings.some((f) => f.severity === "warning") ? "badge-warn" : "badge-info";
  return (
    <span className={`badge ${worst}`} title={findings.map((f) => `${f.severity}: ${f.message}`).join("\n")}>
      {findings.length === 1 ? "1 finding" : `${findings.length} findings`}
    </span>
  );
}

const SEVERITY_BADGES = { critical: "badge-bad", warning: "badge-warn", info: "badge-info" } as const;

/** What the advisor noticed about a result: severity as text, the message and how to fix it. */
export function FindingsList({ findings, label }: { findings: Finding[]; label: string }) {
  if (findings.length === 0) return null;
  return (
    <ul className="findings" aria-label={label}>
      {findings.map((finding, index) => (
        <li key={`${finding.code}-${index}`}>
          <span className={`badge ${SEVERITY_BADGES[finding.severity] ?? "badge-muted"}`}>{finding.severity}</span>{" "}
          {finding.direction ? <span className="muted small">{finding.direction}: </span> : null}
          {finding.message} <span className="small">Fix: {finding.fix}</span>
        </li>
      ))}
    </ul>
  );
}
