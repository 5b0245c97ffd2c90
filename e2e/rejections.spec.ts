import { expect, test } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// The "Rejected" part of an endpoint card (issue #22): a request the endpoint refused is listed with its time,
// status, reason and source IP, and its headers and body show on expand.

test("an endpoint's refused request is listed under Rejected, with its headers and body on expand", async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Ada Rejected");
  await page.getByLabel("Email").fill(`ada+rejections-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("refused-requests-22");
  await page.getByLabel("Workspace name").fill("Rejections");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();

  const headers = { "x-signalbox-dashboard": "1" };
  const created = await page.request.post("/v1/webhook-endpoints", {
    headers,
    data: { name: "Signed", signing: { scheme: "github", secret: "s3cret", rejectInvalid: true } },
  });
  expect(created.status()).toBe(201);
  const endpoint = ((await created.json()) as { data: { id: string; ingestUrl: string } }).data;
  const refused = await page.request.post(endpoint.ingestUrl, {
    headers: { "content-type": "application/json", "x-hub-signature-256": "sha256=00", "x-e2e-marker": "forged" },
    data: '{"forged":true}',
  });
  expect(refused.status()).toBe(401);
  // Recorded off the answer's path: wait until it is there.
  await expect
    .poll(async () => {
      const listed = await page.request.get(`/v1/webhook-endpoints/${endpoint.id}/rejections`, { headers });
      return ((await listed.json()) as { data: { rejections: unknown[] } }).data.rejections.length;
    })
    .toBe(1);

  await page.goto("/endpoints");
  const section = page.getByRole("article", { name: "Signed" }).getByRole("region", { name: "Rejected" });
  await section.getByRole("button", { name: "Show rejected requests" }).click();
  const row = section.getByRole("row").filter({ hasText: "Invalid signature" });
  await expect(row).toContainText("401");
  await expect(row).toContainText("127.0.0.1");
  await row.getByRole("button", { name: "Details" }).click();
  await expect(section.getByText("x-e2e-marker: forged")).toBeVisible();
  await expect(section.getByText('{"forged":true}', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/endpoint-rejected.png`, fullPage: true, animations: "disabled" });
  expect(errors).toEqual([]);
});
