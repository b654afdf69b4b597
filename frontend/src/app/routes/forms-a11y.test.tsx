import { render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../test/fake-api";
import { makeHost, makeTarget, page, resultPage, shellRoutes, signedOutRoutes } from "../../test/factories";
import { renderApp } from "../../test/render-app";

// Every form a user fills: each field has a label tied to it (its accessible name), no two fields of
// one form share a name, and each field can be reached with the keyboard.
function routes() {
  return {
    ...shellRoutes(),
    "GET /api/v1/hosts": { body: page([makeHost()]) },
    "GET /api/v1/targets": { body: page([makeTarget()]) },
    "GET /api/v1/plans": { body: page([]) },
    "GET /api/v1/presets": { body: page([]) },
    "GET /api/v1/runs": { body: page([]) },
    "GET /api/v1/results": { body: resultPage([]) },
    "GET /api/v1/storage-classes": { body: page([]) },
    "GET /api/v1/enrollment-tokens": { body: page([]) },
    "GET /api/v1/tokens": { body: page([]) },
    "GET /api/v1/teams/current/members": { body: page([]) },
    "GET /api/v1/teams/current/invitations": { body: page([]) },
  } as const;
}

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function text(element: Element | null): string {
  return (element?.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** A field's name as assistive technology reads it: aria-labelledby, aria-label, then its <label>s. */
function labelOf(element: Element): string {
  const labelledBy = element.getAttribute("aria-labelledby");
  if (labelledBy) {
    return labelledBy
      .split(/\s+/)
      .map((id) => text(document.getElementById(id)))
      .join(" ")
      .trim();
  }
  const ariaLabel = element.getAttribute("aria-label")?.trim();
  if (ariaLabel) return ariaLabel;
  const labels = (element as Field).labels;
  return labels ? [...labels].map(text).join(" ").trim() : "";
}

function fieldsOf(form: HTMLFormElement): Field[] {
  return [...form.querySelectorAll<Field>("input, select, textarea")].filter(
    (field) => !(field instanceof HTMLInputElement && (field.type === "hidden" || field.type === "submit")),
  );
}

/** Problems with a form's fields: unnamed, named alike, or out of the tab order. */
function audit(form: HTMLFormElement): string[] {
  const formName = labelOf(form) || "(unnamed form)";
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const field of fieldsOf(form)) {
    const name = labelOf(field);
    const what = `${formName}: ${field.tagName.toLowerCase()}[name=${field.name || "?"}]`;
    if (!name) problems.push(`${what} has no label`);
    // Radio buttons of one group share the group's question, not their own labels.
    if (name && !(field instanceof HTMLInputElement && field.type === "radio")) {
      seen.set(name, (seen.get(name) ?? 0) + 1);
      if (seen.get(name) === 2) problems.push(`${formName}: two fields are labelled "${name}"`);
    }
    if (field.tabIndex < 0) problems.push(`${what} cannot be reached with Tab`);
  }
  return problems;
}

const PAGES: [string, string][] = [
  ["/targets", "New target"],
  ["/runs", "Start run"],
  ["/hosts", "Add host"],
  ["/settings/tokens", "API tokens"],
  ["/team", "Team"],
  ["/settings/account", "Account"],
  ["/results", "Results"],
  ["/plans", "Plans"],
];

describe("forms", () => {
  it.each(PAGES)("on %s every field has its own label and takes the keyboard", async (path, heading) => {
    installFakeApi(routes());
    renderApp(path);
    await screen.findAllByRole("heading", { name: heading });
    await waitFor(() => expect(document.querySelectorAll("form").length).toBeGreaterThan(0));
    const forms = [...document.querySelectorAll("form")];
    expect(forms.flatMap(fieldsOf).length).toBeGreaterThan(0);
    expect(forms.flatMap(audit)).toEqual([]);
  });

  it("the audit finds an unlabelled field, two fields named alike and one out of the tab order", () => {
    const { container } = render(
      <form aria-label="Bad form">
        <input name="bare" />
        <label>
          Size <input name="size" />
        </label>
        <label>
          Size <input name="other-size" tabIndex={-1} />
        </label>
      </form>,
    );
    expect(audit(container.querySelector("form")!)).toEqual([
      "Bad form: input[name=bare] has no label",
      'Bad form: two fields are labelled "Size"',
      "Bad form: input[name=other-size] cannot be reached with Tab",
    ]);
  });

  it("on the sign-in page too", async () => {
    installFakeApi(signedOutRoutes());
    renderApp("/login");
    const form = await screen.findByRole("form", { name: /sign in/i }).catch(() => null);
    const forms = form ? [form as HTMLFormElement] : [...document.querySelectorAll("form")];
    expect(forms.length).toBeGreaterThan(0);
    expect(forms.flatMap(audit)).toEqual([]);
  });
});

describe("page titles", () => {
  it.each([
    ["/", "Dashboard · storbench"],
    ["/runs", "Runs · storbench"],
    ["/targets", "Targets · storbench"],
    ["/hosts", "Hosts · storbench"],
    ["/results", "Results · storbench"],
    ["/nowhere", "Page not found · storbench"],
  ])("%s is titled %s", async (path, title) => {
    installFakeApi(routes());
    renderApp(path);
    await waitFor(() => expect(document.title).toBe(title));
  });
});
