import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { pageTitle, usePageTitle } from "./use-page-title";

function Page({ title }: { title: string }) {
  usePageTitle(title);
  return <p>{title}</p>;
}

describe("usePageTitle", () => {
  it("names the page before the site", () => {
    const { rerender, unmount } = render(<Page title="Runs" />);
    expect(document.title).toBe("Runs · storbench");
    rerender(<Page title="Run 12" />);
    expect(document.title).toBe("Run 12 · storbench");
    unmount();
    expect(document.title).not.toBe("Run 12 · storbench");
  });

  it("falls back to the site name alone", () => {
    expect(pageTitle("  ")).toBe("storbench");
  });
});
