import { expect, test, type Page } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// The Deliveries filter bar: search, payload, status and time range held in the URL (a link reproduces the view, Back
// returns to the previous one), a payload filter checked before it is sent, and live arrivals kept to the filters.

const user = {
  name: "Grace Hopper",
  email: `grace+${Date.now()}@example.com`,
  password: "compiler-a-0-1952",
  workspace: "Harvard Mark I",
};

const rows = (page: Page) => page.locator("table.deliveries-table tbody tr");

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

  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Workspace name").fill(user.workspace);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();

  const created = await page.request.post("/v1/webhook-endpoints", {
    headers: { "x-signalbox-dashboard": "1" },
    data: { name: "Billing" },
  });
  expect(created.status()).toBe(201);
  const endpoint = ((await created.json()) as { data: { ingestUrl: string } }).data;
  const send = async (data: unknown) =>
    expect((await page.request.post(endpoint.ingestUrl, { data })).status()).toBe(200);
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
