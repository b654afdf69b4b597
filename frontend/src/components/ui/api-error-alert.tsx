import { errorField, isApiError } from "../../lib/api-client";

interface ApiErrorAlertProps {
  error: unknown;
  /** Details for these fields are shown next to their inputs, so not repeated here. */
  inlineFields?: readonly string[];
  title?: string;
  /** Names of the jobs sent, so errors on field "jobs.N.option" can say which job they concern. */
  jobNames?: readonly string[];
}

function jobOf(field: string | undefined, jobNames: readonly string[]): string | undefined {
  const index = /^jobs\.(\d+)\./.exec(field ?? "")?.[1];
  return index === undefined ? undefined : jobNames[Number(index)];
}

/** The API's message and every error reason, prefixed by the option or field it concerns. */
export function ApiErrorAlert({ error, inlineFields = [], title, jobNames = [] }: ApiErrorAlertProps) {
  if (!error) return null;
  const all = isApiError(error) ? error.errors : [];
  const isInline = (detail: (typeof all)[number]) => {
    const field = errorField(detail);
    return Boolean(field && inlineFields.includes(field));
  };
  const details = all.filter((detail) => !isInline(detail));
  const inline = all.filter(isInline);
  const raw = error instanceof Error ? error.message : String(error);
  // A message that only restates a reason already shown under its field would say it twice.
  const message = inline.some((detail) => raw.includes(detail.reason))
    ? `Check the field${inline.length === 1 ? "" : "s"} marked below.`
    : raw;
  return (
    <div role="alert" className="alert alert-error">
      {title ? <strong>{title}: </strong> : null}
      <span>{message || "Something went wrong."}</span>
      {details.length > 0 ? (
        <ul className="alert-list">
          {details.map((detail, index) => {
            const subject = detail.option ?? errorField(detail);
            const job = detail.job ?? jobOf(errorField(detail), jobNames);
            return (
              <li key={index}>
                {job ? <code>[{job}] </code> : null}
                {subject ? <code>{subject}</code> : null}
                {subject && detail.value ? <code>={detail.value}</code> : null}
                {subject ? ": " : null}
                {detail.reason}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
