import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LANGUAGES,
  launchBrowser,
  openPage,
  readOutbox,
  screenshot,
  signIn,
  TEXTS,
  toastText,
  type TLanguage,
} from '../support/browser';
import { apiCall, apiToken, createUserWithPassword, passwordLinkFromOutbox, uniqueEmail } from '../support/api';

// The acting host of these specs: さくらホテル 新宿 (sakura-shinjuku), run by hotel.admin.
const ADMIN = 'hotel.admin@demo.test';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openUserList(language: TLanguage): Promise<Page> {
  const { page } = await openPage(browser, language);
  await signIn(page, language, ADMIN);
  await page.waitForURL((url) => url.pathname === '/');
  await page.goto('/user-list');
  await page.getByTestId('user-table').waitFor();
  return page;
}

/** The user's row, found through the search box (its 1,000 ms pause included). */
async function findRow(page: Page, language: TLanguage, email: string) {
  await page.getByRole('searchbox', { name: TEXTS[language].users.list.search }).fill(email);
  const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
  await row.waitFor();
  return row;
}

async function rowAction(page: Page, language: TLanguage, email: string, action: string) {
  const t = TEXTS[language];
  const row = await findRow(page, language, email);
  await row.getByRole('button', { name: t.users.actions.open }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe.each(LANGUAGES)('authorization (%s)', (language) => {
  const t = TEXTS[language];

  it('adds a user, who sets a password from the mailed link and signs in', async () => {
    const email = uniqueEmail(`added-${language}`);
    const page = await openUserList(language);
    await page.getByRole('button', { name: t.users.form.add_title }).click();
    const form = page.getByTestId('user-form');
    await form.getByRole('button', { name: t.users.form.add_submit }).click();
    await form.getByText(t.errors.email_required).waitFor();
    await form.getByText(t.errors.role_required).waitFor();

    await form.locator('input[name="fullName"]').fill('森 健');
    await form.locator('input[name="nickName"]').fill('けん');
    await form.locator('input[name="phoneNumber"]').fill('03-1234-5678');
    await form.locator('input[name="email"]').fill(email);
    await form.locator('select[name="role"]').selectOption('staff');
    await screenshot(page, `user-add-${language}`);
    const before = (await readOutbox(email)).length;
    await form.getByRole('button', { name: t.users.form.add_submit }).click();
    expect(await toastText(page)).toContain(t.users.form.added);
    const row = await findRow(page, language, email);
    expect(await row.textContent()).toContain('森 健');
    expect(await row.textContent()).toContain(t.users.origin.original);
    // Adding the same address again is caught while typing (GET /v1/auth/exist).
    await page.getByRole('button', { name: t.users.form.add_title }).click();
    await form.locator('input[name="email"]').fill(email);
    await form.getByText(t.errors.email_registered).waitFor();
    await page.context().close();

    const link = new URL(await passwordLinkFromOutbox(email, before));
    const { context, page: invitee } = await openPage(browser, language);
    await invitee.goto(link.pathname + link.search);
    await invitee.locator('input[name="new-password"]').fill('welcome-pass-1');
    await invitee.locator('input[name="confirm-password"]').fill('welcome-pass-1');
    await invitee.getByRole('button', { name: t.auth.reset_password.submit }).click();
    await invitee.waitForURL('**/login?successBanner=true');
    await signIn(invitee, language, email, 'welcome-pass-1');
    await invitee.getByTestId('level-info').getByText('さくらホテル 新宿').waitFor();
    await context.close();
  });

  it('deactivates a user, who is then refused', async () => {
    const email = uniqueEmail(`inactive-${language}`);
    await createUserWithPassword(ADMIN, { email, fullName: 'Aya Ueda', role: 'viewer' }, 'viewer-pass-1');
    const token = await apiToken(email, 'viewer-pass-1');
    expect((await apiCall('GET', '/v1/auth/me', { token })).status).toBe(200);

    const page = await openUserList(language);
    await rowAction(page, language, email, t.users.actions.deactivate);
    await page.getByRole('dialog').getByRole('button', { name: t.common.confirm }).click();
    expect(await toastText(page)).toContain(t.users.done.deactivated);
    const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
    await row.getByTestId('user-status').getByText(t.users.status.inactive).waitFor();
    await page.context().close();

    // The next request with the token already issued is refused, and so is signing in.
    expect((await apiCall('GET', '/v1/auth/me', { token })).status).toBe(403);
    const { context, page: refused } = await openPage(browser, language);
    await signIn(refused, language, email, 'viewer-pass-1');
    await refused.getByTestId('login-error').getByText(t.errors.no_access).waitFor();
    expect(new URL(refused.url()).pathname).toBe('/login');
    await context.close();
  });

  it('invites a user of another brand, who then finds this hotel in the switch-role dialog', async () => {
    const email = uniqueEmail(`invited-${language}`);
    await createUserWithPassword(
      'harbor.admin@demo.test',
      { email, fullName: 'Lena Park', role: 'staff' },
      'harbor-pass-1',
    );

    const page = await openUserList(language);
    await page.getByRole('button', { name: t.users.invite.open }).click();
    const form = page.getByTestId('invite-form');
    await form.locator('textarea[name="emails"]').fill(`${email}\n${email}`);
    await form.locator('select[name="role"]').selectOption('staff');
    await form.getByRole('button', { name: t.users.invite.submit }).click();
    await form.getByText(t.errors.duplicate_input).waitFor();
    await form.locator('textarea[name="emails"]').fill(`${email}, nobody.${Date.now()}@example.com`);
    await form.getByRole('button', { name: t.users.invite.submit }).click();
    await form.getByText(t.errors.unregistered_emails).waitFor();
    await form.locator('textarea[name="emails"]').fill(email);
    await form.getByRole('button', { name: t.users.invite.submit }).click();
    expect(await toastText(page)).toContain(t.users.invite.done_one.replace('{{count}}', '1'));
    const row = await findRow(page, language, email);
    expect(await row.textContent()).toContain(t.users.origin.invited);
    // Inviting the same user again is refused.
    await page.getByRole('button', { name: t.users.invite.open }).click();
    await form.locator('textarea[name="emails"]').fill(email);
    await form.locator('select[name="role"]').selectOption('viewer');
    await form.getByRole('button', { name: t.users.invite.submit }).click();
    await form.getByText(t.errors.existing_users).waitFor();
    await page.context().close();

    const { context, page: invitee } = await openPage(browser, language);
    await signIn(invitee, language, email, 'harbor-pass-1');
    await invitee.getByTestId('level-info').waitFor();
    await invitee.getByTestId('user-menu').click();
    await invitee.getByRole('menuitem', { name: t.shell.menu.switch_role }).click();
    const dialog = invitee.getByTestId('switch-role-dialog').getByRole('dialog');
    await dialog.getByTestId('role-tab-hotel').click();
    await dialog.locator('[data-testid="role-row"][data-slug="sakura-shinjuku"]').click();
    await invitee.waitForURL((url) => url.search.includes('switchedRoleSuccess=true'));
    await invitee.getByTestId('level-info').getByText('さくらホテル 新宿').waitFor();
    await context.close();
  });

  it("edits a user's nickname, phone and role, seen in the list and the details", async () => {
    const email = uniqueEmail(`edited-${language}`);
    await createUserWithPassword(ADMIN, { email, fullName: '大野 智子', role: 'staff' }, 'edited-pass-1');
    const page = await openUserList(language);
    await rowAction(page, language, email, t.users.actions.edit);
    const form = page.getByTestId('user-form');
    expect(await form.locator('input[name="email"]').getAttribute('readonly')).not.toBeNull();
    await form.locator('input[name="nickName"]').fill('ともちゃん');
    await form.locator('input[name="phoneNumber"]').fill('090-8765-4321');
    await form.locator('select[name="role"]').selectOption('viewer');
    await form.getByRole('button', { name: t.common.save }).click();
    expect(await toastText(page)).toContain(t.users.form.saved);

    const row = page.locator(`[data-testid="user-row"][data-email="${email}"]`);
    await row.getByText('ともちゃん').waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells).toEqual(expect.arrayContaining(['大野 智子', 'ともちゃん', '09087654321', t.roles.hotel.viewer]));
    await rowAction(page, language, email, t.users.actions.detail);
    const detail = page.getByTestId('user-detail');
    await detail.getByText('ともちゃん').waitFor();
    expect(await detail.textContent()).toContain('09087654321');
    expect(await detail.textContent()).toContain(t.roles.hotel.viewer);
    await page.context().close();
    // The new role is in force at the user's next request.
    const token = await apiToken(email, 'edited-pass-1');
    const me = await apiCall<{ meta: { role: string } }>('GET', '/v1/auth/me', { token });
    expect(me.data.meta.role).toBe('viewer');
  });

  it('removes the role of an invited user, who then no longer finds this hotel in the switch-role dialog', async () => {
    const email = uniqueEmail(`removed-${language}`);
    // A brand admin of another brand: they can switch between their brand and the hotels below it.
    await createUserWithPassword(
      'harbor.admin@demo.test',
      { email, fullName: 'Omar Haddad', role: 'admin' },
      'removed-pass-1',
    );
    const invited = await apiCall('POST', '/v1/users/invitations', {
      token: await apiToken(ADMIN),
      body: { emails: [email], role: 'viewer' },
    });
    expect(invited.status).toBe(200);
    const slugs = async () => {
      const { data } = await apiCall<{ hotel: { slug: string }[] }>('GET', '/v1/auth/assignable', {
        token: await apiToken(email, 'removed-pass-1'),
      });
      return data.hotel.map((r) => r.slug);
    };
    expect(await slugs()).toContain('sakura-shinjuku');

    const page = await openUserList(language);
    await rowAction(page, language, email, t.users.actions.remove);
    await page.getByRole('dialog').getByRole('button', { name: t.common.confirm }).click();
    expect(await toastText(page)).toContain(t.users.done.removed);
    await page.locator(`[data-testid="user-row"][data-email="${email}"]`).waitFor({ state: 'detached' });
    await page.context().close();

    const { context, page: former } = await openPage(browser, language);
    await signIn(former, language, email, 'removed-pass-1');
    await former.getByTestId('level-info').waitFor();
    await former.getByTestId('user-menu').click();
    await former.getByRole('menuitem', { name: t.shell.menu.switch_role }).click();
    const dialog = former.getByTestId('switch-role-dialog').getByRole('dialog');
    await dialog.getByTestId('role-tab-hotel').click();
    await dialog.locator('[data-testid="role-row"][data-slug="harbor-okinawa"]').waitFor();
    expect(await dialog.locator('[data-testid="role-row"][data-slug="sakura-shinjuku"]').count()).toBe(0);
    await context.close();
    expect(await slugs()).not.toContain('sakura-shinjuku');
  });
});
