import { describe, expect, it } from "vitest";
import { developmentBuildsIn } from "./build-checks";

describe("production bundle check", () => {
  it("names react-router when its development build is in a chunk", () => {
    const chunks = [
      { fileName: "assets/index.js", code: 'warn(`You rendered descendant <Routes> (or called "useRoutes()")`)' },
      { fileName: "assets/page.js", code: "render()" },
    ];
    expect(developmentBuildsIn(chunks)).toEqual(["react-router (in assets/index.js)"]);
    expect(developmentBuildsIn([{ fileName: "assets/index.js", code: "render()" }])).toEqual([]);
  });
});
