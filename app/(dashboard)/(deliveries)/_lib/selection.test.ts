import { describe, expect, it } from "vitest";
import { EMPTY_SELECTION, pageSelectionState, selectedOnPage, selectionReducer, type Selection } from "./selection";

const page = ["a", "b", "c"];

function apply(selection: Selection, ...actions: Parameters<typeof selectionReducer>[1][]): Selection {
  return actions.reduce(selectionReducer, selection);
}

describe("selection model", () => {
  it("toggles single rows on and off", () => {
    const one = apply(EMPTY_SELECTION, { type: "toggle", id: "b" });
    expect([...one]).toEqual(["b"]);
    expect(pageSelectionState(one, page)).toBe("some");
    expect([...apply(one, { type: "toggle", id: "b" })]).toEqual([]);
  });

  it("never mutates the previous selection", () => {
    const before = apply(EMPTY_SELECTION, { type: "toggle", id: "a" });
    apply(before, { type: "toggle", id: "b" }, { type: "toggleAllOnPage", pageIds: page });
    expect([...before]).toEqual(["a"]);
  });

  it("select all on page selects every row, then a second toggle unselects them", () => {
    const partial = apply(EMPTY_SELECTION, { type: "toggle", id: "a" });
    const all = apply(partial, { type: "toggleAllOnPage", pageIds: page });
    expect(pageSelectionState(all, page)).toBe("all");
    expect(selectedOnPage(all, page)).toEqual(page);
    const none = apply(all, { type: "toggleAllOnPage", pageIds: page });
    expect(pageSelectionState(none, page)).toBe("none");
  });

  it("select all on page keeps rows selected outside the page untouched", () => {
    const other = apply(
      EMPTY_SELECTION,
      { type: "toggle", id: "z" },
      { type: "toggleAllOnPage", pageIds: page },
      { type: "toggleAllOnPage", pageIds: page },
    );
    expect([...other]).toEqual(["z"]);
  });

  it("an empty page is never all selected", () => {
    expect(pageSelectionState(EMPTY_SELECTION, [])).toBe("none");
    expect(apply(EMPTY_SELECTION, { type: "toggleAllOnPage", pageIds: [] }).size).toBe(0);
  });

  it("clears on a filter change and on clear", () => {
    const all = apply(EMPTY_SELECTION, { type: "toggleAllOnPage", pageIds: page });
    expect(apply(all, { type: "filtersChanged" }).size).toBe(0);
    expect(apply(all, { type: "clear" }).size).toBe(0);
    // Nothing to clear: the same object, so React skips the render.
    expect(apply(EMPTY_SELECTION, { type: "filtersChanged" })).toBe(EMPTY_SELECTION);
  });

  it("removes acknowledged ids after a bulk action", () => {
    const all = apply(EMPTY_SELECTION, { type: "toggleAllOnPage", pageIds: page });
    expect(selectedOnPage(apply(all, { type: "remove", ids: ["a", "c"] }), page)).toEqual(["b"]);
    const same = apply(all, { type: "remove", ids: ["x"] });
    expect(same).toBe(all);
  });

  it("selectedOnPage follows page order and ignores ids not on the page", () => {
    const selection = apply(
      EMPTY_SELECTION,
      { type: "toggle", id: "c" },
      { type: "toggle", id: "z" },
      { type: "toggle", id: "a" },
    );
    expect(selectedOnPage(selection, page)).toEqual(["a", "c"]);
  });
});
