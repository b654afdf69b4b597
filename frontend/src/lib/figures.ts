// The figures as the API names them (GET /figures, recorded into ./api/figures.json by
// `make api-types`): each figure's label, unit, which way is better, and where it is shown. Every
// label and unit the SPA shows for a figure comes from here; nothing else in the SPA names one.

import published from "./api/figures.json";
import type { Schema } from "./api/types";

export type FigureName = Schema<"Figure">;
export type FigureUnit = Schema<"FigureUnit">;
export type FigureInfo = Schema<"FigureOut">;

/** Every figure, in the order the API shows them. */
export const FIGURES: readonly FigureInfo[] = (published as Schema<"FigureList">).items;

const BY_NAME: ReadonlyMap<string, FigureInfo> = new Map(FIGURES.map((figure) => [figure.name, figure]));

/** Figures comparisons and grouped views show. */
export const COMPARED_FIGURES: readonly FigureName[] = FIGURES.filter((f) => f.compared).map((f) => f.name);
/** Figures of one direction (read, write, trim): the ones history charts. */
export const DIRECTION_FIGURES: readonly FigureName[] = FIGURES.filter((f) => f.per === "direction").map((f) => f.name);

export function isFigureName(value: string | null): value is FigureName {
  return value !== null && BY_NAME.has(value);
}

/** How people name a figure: "Mean latency"; an unknown name as it is. */
export function figureLabel(name: string): string {
  return BY_NAME.get(name)?.label ?? name;
}

/** A figure the SPA picks by name (a chart of mean latency): its label and unit as the API gives them. */
export function figureInfo(name: FigureName): FigureInfo {
  const figure = BY_NAME.get(name);
  if (!figure) throw new Error(`the API publishes no figure named ${name}`);
  return figure;
}

/** The unit a figure's values are in (bandwidth: "B/s"), if the figure is known. */
export function figureUnit(name: string): FigureUnit | undefined {
  return BY_NAME.get(name)?.unit;
}
