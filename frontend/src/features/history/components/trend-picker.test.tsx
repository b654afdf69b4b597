import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import published from "../../../lib/api/figures.json";
import { TrendPicker } from "./trend-picker";

describe("the trend picker", () => {
  it("offers every figure of one direction the API publishes, by its label", () => {
    render(
      <TrendPicker
        value={{ targetId: "3", job: "", direction: "read", metric: "iops" }}
        targets={[{ id: 3, name: "scratch" }]}
        series={[]}
        onChange={() => {}}
      />,
    );
    const figure = screen.getByRole("combobox", { name: "Figure" });
    const offered = within(figure).getAllByRole("option").map((option) => option.textContent);
    const perDirection = published.items.filter((item) => item.per === "direction").map((item) => item.label);
    expect(offered).toEqual(perDirection);
  });
});
