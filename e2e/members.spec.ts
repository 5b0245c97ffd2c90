import { expect, test, type Browser, type Page } from "@playwright/test";
import { collectPageErrors, SCREENSHOTS } from "./page-errors";

// Members, invitations and the operator, driven through the UI: the demo user (the server's first user, an owner and
// the operator) invites people by link; each invitee opens the link in a browser of their own (a second context, no
// shared cookies), creates an account and lands in the right workspace. The e2e server runs with SIGNUP=open.

const demo = {
  email: process.env.SIGNALBOX_E2E_DEMO_EMAIL ?? "",
  password: process.env.SIGNALBOX_E2E_DEMO_PASSWORD ?? "",
};
const money = (cents: number) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
const uniqueEmail = (tag: string) => `${tag}+${Date.now()}@example.com`;

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
}

async function openFromNav(page: Page, label: string): Promise<void> {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: label, exact: true }).click();
}

/** Invites `email` from the Members page and returns the link, read from the one-time dialog (then closed). */
async function invite(page: Page, email: string, role: "Member" | "Owner"): Promise<string> {
  const form = page.getByRole("region", { name: "Invite someone" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption({ label: role });
  await form.getByRole("button", { name: "Create invitation link" }).click();
  const dialog = page.getByRole("dialog", { name: `Invitation link for ${email}` });
  await expect(dialog).toBeVisible();
  const link = (await dialog.getByLabel("Invitation link", { exact: true }).textContent())?.trim() ?? "";
  expect(link).toMatch(/^http:\/\/[^/]+\/invite\/sbx_inv_[0-9A-Za-z]{40}$/);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: `Invited ${email}.` })).toBeVisible();
  return link;
}

/** A browser of the invitee's own, with its page and the errors it logs. */
async function newVisitor(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { context, page, errors: collectPageErrors(page) };
}

test("an owner invites a member by link; the member creates an account, joins, and makes test keys only", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  const memberEmail = uniqueEmail("lin");
  await signIn(page, demo.email, demo.password);

  await openFromNav(page, "Members");
  await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  const members = page.getByRole("table", { name: "Members of Demo workspace" });
  const demoRow = members.getByRole("row").filter({ hasText: demo.email });
  await expect(demoRow).toContainText("(you)");
  await expect(demoRow.getByRole("combobox")).toHaveValue("owner");

  const link = await invite(page, memberEmail, "Member");
  const pending = page.getByRole("table", { name: "Pending invitations into this workspace" });
  await expect(pending.getByRole("row").filter({ hasText: memberEmail })).toContainText("Member");
  await page.screenshot({ path: `${SCREENSHOTS}/members-owner.png`, fullPage: true, animations: "disabled" });

  // The invitee, in a browser of their own: the page names the workspace, takes the invitation's email as it is.
  const member = await newVisitor(browser);
  await member.page.goto(link);
  await expect(member.page.getByRole("heading", { level: 1, name: "Join Demo workspace" })).toBeVisible();
  await expect(member.page.locator('meta[name="referrer"]')).toHaveAttribute("content", "no-referrer");
  await expect(member.page.getByLabel("Email")).toHaveValue(memberEmail);
  await expect(member.page.getByLabel("Email")).not.toBeEditable();
  await expect(member.page.getByLabel("Workspace name")).toHaveCount(0);
  await member.page.getByLabel("Your name").fill("Lin Member");
  await member.page.getByLabel("Password").fill("member-password-2026");
  await member.page.screenshot({ path: `${SCREENSHOTS}/invite-create-account.png`, fullPage: true });
  await member.page.getByRole("button", { name: "Create account" }).click();
  await expect(member.page).toHaveURL(/\/$/);
  await expect(member.page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(member.page.getByText("Demo workspace")).toBeVisible();
  // Not an operator: no Operator page in the menu.
  await expect(
    member.page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Operator" }),
  ).toHaveCount(0);

  // The owner sees the new member; the invitation is used up.
  await page.goto("/members");
  const memberRow = members.getByRole("row").filter({ hasText: memberEmail });
  await expect(memberRow).toContainText("Lin Member");
  await expect(memberRow.getByRole("combobox")).toHaveValue("member");
  await expect(page.getByRole("region", { name: "Pending invitations" })).not.toContainText(memberEmail);

  // The member reads the list and may leave, nothing more.
  await openFromNav(member.page, "Members");
  await expect(member.page.getByRole("table", { name: "Members of Demo workspace" })).toContainText(demo.email);
  await expect(member.page.getByRole("combobox")).toHaveCount(0);
  await expect(member.page.getByRole("region", { name: "Invite someone" })).toHaveCount(0);
  await expect(member.page.getByRole("button", { name: "Leave workspace" })).toBeVisible();

  // Live keys are for owners: the choice is disabled, and the API refuses one anyway.
  await openFromNav(member.page, "API keys");
  const keyForm = member.page.getByRole("region", { name: "Create a key" });
  await expect(keyForm.getByRole("radio", { name: /^Live/ })).toBeDisabled();
  await expect(keyForm.getByRole("radio", { name: /^Test/ })).toBeChecked();
  await expect(keyForm).toContainText("Owners only: live keys spend the workspace's money.");
  await member.page.screenshot({ path: `${SCREENSHOTS}/members-member-keys.png`, fullPage: true });
  const refused = await member.page.request.post("/v1/api-keys", {
    headers: { "x-signalbox-dashboard": "1" },
    data: { name: "Sneaky", mode: "live" },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, error: { code: "forbidden" } });

  await member.context.close();
  expect(errors, "the owner's pages logged errors").toEqual([]);
  expect(member.errors, "the member's pages logged errors").toEqual([]);
});

test("a revoked invitation's link says it is not valid", async ({ page, browser }) => {
  const errors = collectPageErrors(page);
  const email = uniqueEmail("revoked");
  await signIn(page, demo.email, demo.password);
  await openFromNav(page, "Members");
  const link = await invite(page, email, "Owner");

  const pending = page.getByRole("table", { name: "Pending invitations into this workspace" });
  await pending.getByRole("button", { name: `Revoke the invitation for ${email}` }).click();
  const confirm = page.getByRole("dialog", { name: `Revoke the invitation for ${email}?` });
  await confirm.getByRole("button", { name: "Revoke invitation" }).click();
  await expect(confirm).toBeHidden();
  await expect(
    page.getByRole("status").filter({ hasText: `Revoked the invitation for ${email}. Its link no longer works.` }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Pending invitations" })).not.toContainText(email);

  const visitor = await newVisitor(browser);
  await visitor.page.goto(link);
  await expect(visitor.page.getByRole("heading", { level: 1, name: "This invitation is not valid" })).toBeVisible();
  await expect(visitor.page.getByText("This invitation link is not valid any more")).toBeVisible();
  await expect(visitor.page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/sign-in");
  await visitor.page.screenshot({ path: `${SCREENSHOTS}/invite-not-valid.png`, fullPage: true });

  await visitor.context.close();
  expect(errors, "the owner's pages logged errors").toEqual([]);
  expect(visitor.errors, "the visitor's page logged errors").toEqual([]);
});

test("the operator adds funds to a workspace and invites someone to sign up; others see operators only", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await signIn(page, demo.email, demo.password);

  await openFromNav(page, "Operator");
  await expect(page.getByRole("heading", { level: 1, name: "Operator" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Search" }).fill("Demo");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByText(/matching “Demo”\./)).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /Demo workspace/ }) });
  await expect(row).toContainText(demo.email);
  // Cells after the row header: Owners, Members, Allowance, Remaining, Purchased.
  const purchasedCell = row.getByRole("cell").nth(4);
  const before = await page.request.get("/v1/operator/workspaces?q=Demo%20workspace", {
    headers: { "x-signalbox-dashboard": "1" },
  });
  expect(before.status()).toBe(200);
  const beforeCents = ((await before.json()) as { data: { workspaces: { purchasedBalanceCents: number }[] } }).data
    .workspaces[0]!.purchasedBalanceCents;
  await expect(purchasedCell).toHaveText(money(beforeCents));

  await row.getByRole("button", { name: "Add funds to Demo workspace" }).click();
  const dialog = page.getByRole("dialog", { name: "Add funds to Demo workspace" });
  await dialog.getByLabel("Amount in dollars").fill("12.345");
  await dialog.getByRole("button", { name: "Add funds", exact: true }).click();
  await expect(dialog.getByText("Use at most two decimals: the smallest amount is one cent.")).toBeVisible();
  await dialog.getByLabel("Amount in dollars").fill("12.34");
  await dialog.getByLabel("Note").fill("E2E top-up");
  await dialog.getByRole("button", { name: "Add funds", exact: true }).click();
  const after = money(beforeCents + 1234);
  await expect(dialog.getByRole("status")).toHaveText(
    `Added $12.34 to Demo workspace. Its purchased balance is now ${after}.`,
  );
  await page.screenshot({ path: `${SCREENSHOTS}/operator-add-funds.png`, fullPage: true, animations: "disabled" });
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toBeHidden();
  await expect(purchasedCell).toHaveText(after);

  // Sign-up invitations: the policy (SIGNUP=open here) and a link for someone new.
  const signUps = page.getByRole("region", { name: "Sign-up invitations" });
  await expect(signUps).toContainText("SIGNUP=open");
  const invitee = uniqueEmail("newco");
  await signUps.getByLabel("Email").fill(invitee);
  await signUps.getByRole("button", { name: "Create sign-up link" }).click();
  const linkDialog = page.getByRole("dialog", { name: `Invitation link for ${invitee}` });
  const link = (await linkDialog.getByLabel("Invitation link", { exact: true }).textContent())?.trim() ?? "";
  expect(link).toMatch(/\/invite\/sbx_inv_[0-9A-Za-z]{40}$/);
  await linkDialog.getByRole("button", { name: "Done" }).click();
  await expect(signUps.getByRole("table", { name: "Pending sign-up invitations" })).toContainText(invitee);
  await page.screenshot({ path: `${SCREENSHOTS}/operator.png`, fullPage: true, animations: "disabled" });

  // Usage shows the new purchased balance and says where funds come from.
  await openFromNav(page, "Usage");
  await expect(page.getByRole("region", { name: "Purchased balance" })).toContainText(after);
  await expect(page.getByRole("link", { name: "Operator", exact: true }).last()).toHaveAttribute("href", "/operator");

  // The invitee signs up with a workspace of their own; as a non-operator, /operator says it is for operators.
  const visitor = await newVisitor(browser);
  await visitor.page.goto(link);
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
  await visitor.page.getByLabel("Password").fill("new-company-2026");
  await visitor.page.getByLabel("Workspace name").fill("New Co");
  await visitor.page.getByRole("button", { name: "Create account" }).click();
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(visitor.page.getByText("New Co")).toBeVisible();
  await openFromNav(visitor.page, "Usage");
  await expect(visitor.page.getByText("Ask an operator of this server to add funds.")).toBeVisible();
  await visitor.page.goto("/operator");
  await expect(visitor.page.getByRole("heading", { name: "Operators only" })).toBeVisible();
  await visitor.page.screenshot({ path: `${SCREENSHOTS}/operator-forbidden.png`, fullPage: true });

  await visitor.context.close();
  expect(errors, "the operator's pages logged errors").toEqual([]);
  expect(visitor.errors, "the invitee's pages logged errors").toEqual([]);
});

test("someone with an account signs in to accept and joins; the last owner cannot step down; the member leaves", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  const person = { email: uniqueEmail("grace"), password: "existing-account-2026", workspace: "Own Co" };

  // An account of their own (sign-up is open on the e2e server), then signed out.
  const visitor = await newVisitor(browser);
  await visitor.page.goto("/sign-up");
  await visitor.page.getByLabel("Email").fill(person.email);
  await visitor.page.getByLabel("Password").fill(person.password);
  await visitor.page.getByLabel("Workspace name").fill(person.workspace);
  await visitor.page.getByRole("button", { name: "Create account" }).click();
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await visitor.page.getByRole("button", { name: "Sign out" }).click();
  await expect(visitor.page).toHaveURL(/\/sign-in$/);

  await signIn(page, demo.email, demo.password);
  await openFromNav(page, "Members");
  const link = await invite(page, person.email, "Member");

  // Opened while signed in as someone else, the link names whom it is for.
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "This invitation is for someone else" })).toBeVisible();
  await expect(
    page.getByText(`This invitation is for ${person.email}, and you are signed in as ${demo.email}.`),
  ).toBeVisible();
  // Signing out there shows the link as its invitee would see it.
  await page.getByRole("button", { name: `Sign out ${demo.email}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to accept" })).toBeVisible();

  // The invitee signs in from the link and comes back to it to join.
  await visitor.page.goto(link);
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Sign in to accept" })).toBeVisible();
  await visitor.page.getByRole("link", { name: "Sign in to accept" }).click();
  await expect(visitor.page).toHaveURL(/\/sign-in\?callbackUrl=%2Finvite%2Fsbx_inv_/);
  await visitor.page.getByLabel("Email").fill(person.email);
  await visitor.page.getByLabel("Password").fill(person.password);
  await visitor.page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Join Demo workspace" })).toBeVisible();
  await visitor.page.getByRole("button", { name: "Join Demo workspace" }).click();
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  const switcher = visitor.page.getByRole("combobox", { name: "Workspace" });
  await expect(switcher.locator("option:checked")).toHaveText("Demo workspace");

  // The only owner cannot make themselves a member: the refusal is shown beside the role.
  await signIn(page, demo.email, demo.password);
  await openFromNav(page, "Members");
  const ownRole = page.getByRole("row").filter({ hasText: demo.email }).getByRole("combobox");
  await ownRole.selectOption("member");
  await expect(page.getByRole("alert").filter({ hasText: "A workspace needs an owner" })).toBeVisible();
  await expect(ownRole).toHaveValue("owner");
  await expect(ownRole).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("row").filter({ hasText: person.email })).toBeVisible();

  // The member leaves and continues in their own workspace.
  await openFromNav(visitor.page, "Members");
  await visitor.page.getByRole("button", { name: "Leave workspace" }).click();
  const confirm = visitor.page.getByRole("dialog", { name: "Leave Demo workspace?" });
  await expect(confirm).toContainText(`You continue in ${person.workspace}.`);
  await confirm.getByRole("button", { name: "Leave workspace" }).click();
  await expect(visitor.page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(visitor.page.locator(".shell-workspace")).toHaveText(`Workspace: ${person.workspace}`);

  await page.reload();
  await expect(page.getByRole("table", { name: "Members of Demo workspace" })).toContainText(demo.email);
  await expect(page.getByRole("table", { name: "Members of Demo workspace" })).not.toContainText(person.email);

  await visitor.context.close();
  // The refused role change is a 400 that Chromium logs as a failed resource; the app itself logged nothing.
  expect(errors, "the owner's pages logged errors").toEqual([
    expect.stringMatching(
      /^console: Failed to load resource: the server responded with a status of 400 .*\/v1\/workspace\/members\/usr_\w+\)$/,
    ),
  ]);
  expect(visitor.errors, "the member's pages logged errors").toEqual([]);
});
