import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// The deliveries page's actions over the whole filtered list (issue #20 §4): each row's payload preview, "Export"
// (a download of NDJSON with its end line) and "Acknowledge all matching" (after a confirmation), for a new user.

test("rows show payload previews; Export downloads the filtered list; Acknowledge all matching acknowledges it", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = collectPageErrors(page);
  // Chromium would open its native save dialog, which a test cannot answer: take the Blob download instead.
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });

  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Grace Hopper");
  await page.getByLabel("Email").fill(`grace+${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("compiler-a-0-1952");
  await page.getByLabel("Workspace name").fill("Harvard Mark I");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();

  const endpoints: { id: string; ingestUrl: string }[] = [];
  for (const name of ["Orders", "Chat"]) {
    const created = await page.request.post("/v1/webhook-endpoints", {
      headers: { "x-signalbox-dashboard": "1" },
      data: { name },
    });
    expect(created.status()).toBe(201);
    endpoints.push(((await created.json()) as { data: { id: string; ingestUrl: string } }).data);
  }
  const [orders, chat] = endpoints as [(typeof endpoints)[0], (typeof endpoints)[0]];
  for (const n of [1, 2, 3])
    expect((await page.request.post(orders.ingestUrl, { data: { event: "order.paid", order: n } })).status()).toBe(200);
  const form = await page.request.post(chat.ingestUrl, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: "user=ada&text=hello+there",
  });
  expect(form.status()).toBe(200);

  await page.reload();
  const rows = page.locator("table.deliveries-table tbody tr");
  await expect(rows).toHaveCount(4);
  await expect(rows.getByText('{"event":"order.paid","order":2}', { exact: true })).toBeVisible();
  await expect(rows.getByText("user=ada text=hello there", { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/deliveries-previews.png`, fullPage: true });

  // Filter to one endpoint, then export: the download holds its three deliveries, oldest first, and the end line.
  await page.getByLabel("Endpoint").selectOption(orders.id);
  await expect(rows).toHaveCount(3);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^deliveries-[\d-]+\.ndjson$/);
  const lines = readFileSync((await file.path())!, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { webhookEndpointId?: string; rawPayload?: { order: number } });
  expect(lines.at(-1)).toEqual({ type: "end", count: 3 });
  expect(lines.slice(0, -1).map((line) => line.rawPayload?.order)).toEqual([1, 2, 3]);
  expect(lines.slice(0, -1).every((line) => line.webhookEndpointId === orders.id)).toBe(true);
  await expect(page.getByRole("status").filter({ hasText: "Exported 3 deliveries." })).toBeVisible();

  // Acknowledge all matching: asks first, then one filtered request; the other endpoint's delivery stays pending.
  await page.getByRole("button", { name: "Acknowledge all matching" }).click();
  const dialog = page.getByRole("dialog", { name: "Acknowledge every pending delivery that matches?" });
  await expect(dialog).toBeVisible();
  const request = page.waitForRequest(
    (sent) => sent.url().endsWith("/v1/webhook-endpoints/deliveries/ack") && sent.method() === "POST",
  );
  await dialog.getByRole("button", { name: "Acknowledge all" }).click();
  const filter = (JSON.parse((await request).postData() ?? "{}") as { filter: Record<string, string> }).filter;
  expect(filter.endpointId).toBe(orders.id);
  expect(filter.until).toMatch(/Z$/);
  await expect(page.getByRole("status").filter({ hasText: "Acknowledged 3 deliveries." })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(rows.getByText("Acknowledged", { exact: true })).toHaveCount(3);

  await page.getByLabel("Endpoint").selectOption({ label: "All endpoints" });
  await expect(rows).toHaveCount(4);
  await expect(rows.getByText("Pending", { exact: true })).toHaveCount(1);
  expect(errors).toEqual([]);
});
