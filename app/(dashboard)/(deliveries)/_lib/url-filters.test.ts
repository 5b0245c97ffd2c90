import { describe, expect, it } from "vitest";
import {
  NO_FILTERS,
  filterViewSearch,
  fromLocalInput,
  isFiltered,
  payloadProblem,
  rangeProblem,
  readFilterView,
  searchProblem,
  searchesContent,
  toDeliveryFilters,
  toLocalInput,
} from "./url-filters";

const view = (search: string) => readFilterView(new URLSearchParams(search));

describe("the filters in the URL", () => {
  it("round-trips a view through its query string, only what is set, in one order", () => {
    const full = {
      q: "50% off & more",
      endpointId: "we_1",
      status: "pending" as const,
      eventType: "orders/create",
      since: "2026-01-01T00:00:00.000Z",
      until: "2026-01-02T00:00:00.000Z",
      payload: '{"type":"invoice.paid"}',
    };
    const search = filterViewSearch(full);
    expect(search).toBe(
      "?q=50%25+off+%26+more&endpoint=we_1&status=pending&eventType=orders%2Fcreate&since=2026-01-01T00%3A00%3A00.000Z&until=2026-01-02T00%3A00%3A00.000Z&payload=%7B%22type%22%3A%22invoice.paid%22%7D",
    );
    expect(view(search)).toEqual(full);
    expect(filterViewSearch(NO_FILTERS)).toBe("");
    expect(filterViewSearch({ ...NO_FILTERS, status: "acknowledged" })).toBe("?status=acknowledged");
  });

  it("reads an unknown status or a time that is not one as unset", () => {
    expect(view("status=maybe&since=yesterday&until=2026-13-45T00:00:00Z")).toEqual(NO_FILTERS);
    expect(isFiltered(view(""))).toBe(false);
    expect(isFiltered(view("q=ab"))).toBe(true);
  });

  it("keeps an event type exactly as the link has it, and drops one longer than any stored type", () => {
    expect(view("eventType=%20Issues.opened").eventType).toBe(" Issues.opened");
    expect(view(`eventType=${"a".repeat(200)}`).eventType).toBe("a".repeat(200));
    expect(view(`eventType=${"a".repeat(201)}`)).toEqual(NO_FILTERS);
    expect(isFiltered(view("eventType="))).toBe(false);
    expect(filterViewSearch({ ...NO_FILTERS, eventType: "invoice.paid" })).toBe("?eventType=invoice.paid");
  });
});

describe("toDeliveryFilters", () => {
  it("sends what the API takes", () => {
    const filters = toDeliveryFilters(
      view("q=needle&endpoint=we_1&status=acknowledged&eventType=invoice.paid&payload=%7B%22a%22%3A1%7D"),
    );
    expect(filters).toEqual({
      endpointId: "we_1",
      unacknowledged: "false",
      eventType: "invoice.paid",
      q: "needle",
      since: undefined,
      until: undefined,
      payload: '{"a":1}',
    });
    expect(searchesContent(filters)).toBe(true);
    expect(searchesContent(toDeliveryFilters(view("endpoint=we_1&since=2026-01-01T00:00:00Z")))).toBe(false);
    expect(searchesContent(toDeliveryFilters(view("eventType=issues.opened")))).toBe(false);
  });

  it("leaves out a search, payload or range the API would refuse", () => {
    const filters = toDeliveryFilters(
      view("q=ab&payload=%5B1%5D&since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z"),
    );
    expect(filters).toEqual({
      endpointId: undefined,
      unacknowledged: undefined,
      eventType: undefined,
      q: undefined,
      since: undefined,
      until: undefined,
      payload: undefined,
    });
  });
});

describe("input checks", () => {
  it("explains a short search, and takes 3 characters (not UTF-16 units)", () => {
    expect(searchProblem("")).toBeNull();
    expect(searchProblem("ab")).toMatch(/at least 3/);
    expect(searchProblem("😀😀")).toMatch(/at least 3/);
    expect(searchProblem("é😀x")).toBeNull();
  });

  it("explains a payload filter that is not a JSON object", () => {
    expect(payloadProblem("  ")).toBeNull();
    expect(payloadProblem('{"type":"invoice.paid"}')).toBeNull();
    expect(payloadProblem("{type:1}")).toMatch(/^The payload filter must be JSON/);
    expect(payloadProblem("[1]")).toBe("The payload filter must be a JSON object.");
  });

  it("explains a range that ends before it starts", () => {
    expect(rangeProblem({ since: "2026-01-02T00:00:00Z", until: "2026-01-01T00:00:00Z" })).toMatch(/after its end/);
    expect(rangeProblem({ since: "2026-01-01T00:00:00Z", until: "" })).toBeNull();
  });
});

describe("datetime-local values", () => {
  it("round-trip an instant to the minute in the local zone", () => {
    const local = toLocalInput("2026-03-29T01:30:00.000Z");
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe("2026-03-29T01:30:00.000Z");
    expect(toLocalInput("")).toBe("");
    expect(fromLocalInput("")).toBe("");
    expect(fromLocalInput("2026-03-29T")).toBe("");
  });
});
