import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// The Deliveries filter bar: search, payload, status and time range held in the URL (a link reproduces the view, Back
// returns to the previous one), a payload filter checked before it is sent, live arrivals kept to the filters, and the
// event type filter (the types received, a type from a link, a row's type) passed to Export and bulk acknowledgement.

const rows = (page: Page) => page.locator("table.deliveries-table tbody tr");

/** Signs a new user up and creates an endpoint; returns a sender of JSON deliveries to it. */
async function signUpWithEndpoint(page: Page, endpointName: string) {
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Grace Hopper");
  await page.getByLabel("Email").fill(`grace+${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`);
  await page.getByLabel("Password").fill("compiler-a-0-1952");
  await page.getByLabel("Workspace name").fill("Harvard Mark I");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();

  const created = await page.request.post("/v1/webhook-endpoints", {
    headers: { "x-signalbox-dashboard": "1" },
    data: { name: endpointName },
  });
  expect(created.status()).toBe(201);
  const endpoint = ((await created.json()) as { data: { ingestUrl: string } }).data;
  return async (data: unknown, headers: Record<string, string> = {}) =>
    expect((await page.request.post(endpoint.ingestUrl, { data, headers })).status()).toBe(200);
}

/** Waits until the list shows `count` rows, taking new arrivals in as their button appears. */
async function expectRows(page: Page, count: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const more = page.getByRole("button", { name: /new deliver/ });
        if (await more.isVisible()) await more.click();
        return rows(page).count();
      },
      { timeout: 20_000 },
    )
    .toBe(count);
}

test("search, payload, status and time filters live in the URL and keep live arrivals to themselves", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);

  const send = await signUpWithEndpoint(page, "Billing");
  await send({ type: "invoice.paid", note: "Order NEEDLE-1" });
  await send({ type: "customer.updated", note: "needle in a haystack" });
  await send({ type: "invoice.paid", note: "plain" });
  await send({ type: "charge.refunded", note: "plain" });
  await expectRows(page, 4);

  // Search: typed, debounced, in the URL; letters in any case.
  const search = page.getByLabel("Search");
  await search.fill("ne");
  await expect(page.getByText("Type at least 3 characters to search.")).toBeVisible();
  await search.fill("Needle");
  await expect(page).toHaveURL(/\?q=Needle$/);
  await expectRows(page, 2);
  await page.screenshot({ path: `${SCREENSHOTS}/deliveries-search.png`, fullPage: true });

  // The payload filter: refused with a message until it is a JSON object, then combined with the search.
  const payload = page.getByLabel("Payload contains (JSON)");
  await payload.fill('{"type":');
  await expect(page.getByText(/The payload filter must be JSON text/)).toBeVisible();
  await expect(page).toHaveURL(/\?q=Needle$/);
  await payload.fill('{"type": "invoice.paid"}');
  await expect(page).toHaveURL(/payload=/);
  await expectRows(page, 1);

  // A link reproduces the view.
  const url = page.url();
  await page.goto(url);
  await expect(page.getByLabel("Search")).toHaveValue("Needle");
  await expect(page.getByLabel("Payload contains (JSON)")).toHaveValue('{"type": "invoice.paid"}');
  await expectRows(page, 1);

  // Status is a step of its own: Back returns to the view before it.
  await page.getByLabel("Status").selectOption("acknowledged");
  await expect(page).toHaveURL(/status=acknowledged/);
  await expect(page.getByRole("heading", { name: "No deliveries match these filters" })).toBeVisible();
  await page.goBack();
  await expect(page).not.toHaveURL(/status=/);
  await expect(page.getByLabel("Status")).toHaveValue("all");
  await expectRows(page, 1);

  // Live arrivals: one that does not match stays out, one that does comes in.
  await page.getByLabel("Payload contains (JSON)").fill("");
  await expect(page).not.toHaveURL(/payload=/);
  await expectRows(page, 2);
  await send({ type: "invoice.paid", note: "no match here" });
  await send({ type: "invoice.paid", note: "another needle" });
  await expectRows(page, 3);
  await expect(rows(page)).toHaveCount(3);

  // A time range that ends before anything arrived: nothing matches.
  await page.getByLabel("to (before)").fill("2020-01-01T00:00");
  await expect(page).toHaveURL(/until=2020-01-01T/);
  await expect(page.getByRole("heading", { name: "No deliveries match these filters" })).toBeVisible();

  // Clear filters: every delivery, and a bare URL.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByLabel("Search")).toHaveValue("");
  await expectRows(page, 6);

  expect(errors, "the pages logged errors").toEqual([]);
});

test("the event type filter offers the types received, lives in the URL and narrows live arrivals, Export and Acknowledge all", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  // Chromium would open its native save dialog, which a test cannot answer: take the Blob download instead.
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });

  const send = await signUpWithEndpoint(page, "Everything");
  await send({ type: "invoice.paid", n: 1 });
  await send({ action: "opened", n: 2 }, { "X-GitHub-Event": "issues" });
  await send({ type: "invoice.paid", n: 3 });
  await send({ ref: "refs/heads/main", n: 4 }, { "X-GitHub-Event": "push" });
  await expectRows(page, 4);

  // The select offers every type received, once each, after "All event types".
  const eventType = page.getByLabel("Event type");
  await expect(eventType.locator("option")).toHaveText(["All event types", "invoice.paid", "issues.opened", "push"]);
  await eventType.selectOption("invoice.paid");
  await expect(page).toHaveURL(/\/\?eventType=invoice\.paid$/);
  await expectRows(page, 2);
  await page.screenshot({ path: `${SCREENSHOTS}/deliveries-event-type.png`, fullPage: true });

  // Live arrivals keep to the type; a reload keeps the filter (it is in the URL).
  await send({ ref: "refs/heads/next", n: 5 }, { "X-GitHub-Event": "push" });
  await send({ type: "invoice.paid", n: 6 });
  await expectRows(page, 3);
  await page.reload();
  await expect(page.getByLabel("Event type")).toHaveValue("invoice.paid");
  await expect(rows(page)).toHaveCount(3);

  // Export takes the filter: the three invoices, oldest first.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const lines = readFileSync((await (await download).path())!, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { eventType?: string; rawPayload?: { n: number } });
  expect(lines.at(-1)).toEqual({ type: "end", count: 3 });
  expect(lines.slice(0, -1).map((line) => [line.eventType, line.rawPayload?.n])).toEqual([
    ["invoice.paid", 1],
    ["invoice.paid", 3],
    ["invoice.paid", 6],
  ]);

  // So does Acknowledge all matching: the invoices only.
  await page.getByRole("button", { name: "Acknowledge all matching" }).click();
  const dialog = page.getByRole("dialog", { name: "Acknowledge every pending delivery that matches?" });
  await dialog.getByRole("button", { name: "Acknowledge all" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Acknowledged 3 deliveries." })).toBeVisible();

  // A link naming a type not received (yet) shows it selected and applies it.
  await page.goto("/?eventType=orders%2Fcreate");
  await expect(page.getByLabel("Event type")).toHaveValue("orders/create");
  await expect(page.getByRole("heading", { name: "No deliveries match these filters" })).toBeVisible();

  // "All event types" lifts the filter; a row's event type sets it.
  await page.getByLabel("Event type").selectOption({ label: "All event types" });
  await expect(page).toHaveURL(/\/$/);
  await expectRows(page, 6);
  await expect(rows(page).getByText("Pending", { exact: true })).toHaveCount(3);
  await rows(page).getByRole("button", { name: "issues.opened" }).click();
  await expect(page).toHaveURL(/\?eventType=issues\.opened$/);
  await expect(page.getByLabel("Event type")).toHaveValue("issues.opened");
  await expectRows(page, 1);
  await expect(page.getByRole("dialog")).toBeHidden();

  expect(errors, "the pages logged errors").toEqual([]);
});
