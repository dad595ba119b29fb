import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { APIRequestContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject } from 'vitest';
import { expectNoAxeFindings } from './axe';
import {
  baseURL,
  CUSTOMER_PASSWORD,
  expectNoSidewaysScroll,
  PHONE,
  screenshot,
  staffContext,
  test,
  uniqueEmail,
} from './fixtures';

const fixtures = path.join(import.meta.dirname, '..', 'fixtures');

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A real HTTPS receiver on 127.0.0.1, with the certificate the server was told to trust. */
let receiver: https.Server;
const received: Received[] = [];
beforeAll(async () => {
  const { key, cert } = inject('webhookTls');
  receiver = https.createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString(),
      });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      receiver.closeAllConnections();
      receiver.close(() => resolve());
    }),
);
const receiverUrl = () => `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

async function uploadDocument(request: APIRequestContext, name: string) {
  const response = await request.post('/api/upload-verification-document', {
    multipart: {
      file: {
        name,
        mimeType: 'image/jpeg',
        buffer: readFileSync(path.join(fixtures, 'card-front.jpg')),
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).objectPath as string;
}

/** The seller's identity and then address, sent and approved by staff: verification level 2. */
async function reachLevelTwo(seller: APIRequestContext, staff: APIRequestContext) {
  const submissions = [
    {
      level: 1,
      legalFirstName: 'Pat',
      legalLastName: 'Partner',
      dateOfBirth: '1988-02-03',
      country: 'US',
      documentType: 'passport',
      documentImages: [await uploadDocument(seller, 'passport.jpg')],
      selfieImage: await uploadDocument(seller, 'selfie.jpg'),
    },
    async () => ({
      level: 2,
      addressLine1: '1 Market Street',
      city: 'San Francisco',
      region: 'CA',
      postalCode: '94105',
      country: 'US',
      proofImages: [await uploadDocument(seller, 'bill.jpg')],
    }),
  ];
  for (const submission of submissions) {
    const data = typeof submission === 'function' ? await submission() : submission;
    const sent = await seller.post('/api/verification', { data });
    expect(sent.status(), await sent.text()).toBe(201);
    const { id } = await sent.json();
    const decided = await staff.post(`/api/admin/verifications/${id}/decision`, {
      data: { decision: 'approve' },
    });
    expect(decided.status(), await decided.text()).toBe(200);
  }
}

const balanceWith = (key: string) =>
  fetch(`${baseURL()}/api/v1/balance`, { headers: { authorization: `Bearer ${key}` } });

async function openApiTab(page: Page) {
  await page.goto('/profile?tab=api');
  await expect(page.getByRole('tab', { name: 'API' })).toHaveAttribute('aria-selected', 'true');
}

describe('the partner API in the profile (issue 42)', () => {
  test('a level-2 seller creates a key, sees it once, uses it, revokes it, and adds a webhook endpoint that gets a test event', async ({
    browser,
  }) => {
    const email = uniqueEmail('partner');
    const context = await browser.newContext({ baseURL: baseURL() });
    const page = await context.newPage();
    const signup = await page.request.post('/api/signup', {
      data: { email, password: CUSTOMER_PASSWORD, firstName: 'Pat', lastName: 'Partner' },
    });
    expect(signup.ok()).toBe(true);
    const staff = await staffContext(browser);
    await reachLevelTwo(page.request, staff.request);
    await staff.close();

    await openApiTab(page);
    const keys = page.getByTestId('api-keys-card');
    await expect(keys.getByText('No API keys yet.')).toBeVisible();
    await keys.getByRole('button', { name: 'Create API key' }).click();
    // Nothing chosen: told why, nothing sent.
    await keys.getByRole('button', { name: 'Create key' }).click();
    await expect(keys.getByText('Name is required')).toBeVisible();
    await expect(keys.getByText('Choose at least one scope')).toBeVisible();
    await keys.getByLabel('Name').fill('Shop backend');
    await keys.getByRole('checkbox', { name: /Read the balance/ }).click();
    await keys.getByRole('checkbox', { name: /Read cards/ }).click();
    await keys.getByRole('button', { name: 'Create key' }).click();

    const shown = page.getByTestId('new-api-key-value');
    await expect(shown).toHaveText(/^cb_live_[0-9A-Za-z]{43}$/);
    const key = (await shown.textContent())!;
    await expect(page.getByTestId('new-api-key')).toContainText('shown only this once');
    await expect(page.getByTestId('api-key-row')).toContainText(`cb_live_…${key.slice(-4)}`);
    await expect(page.getByTestId('api-key-row')).toContainText('Never');
    await expectNoAxeFindings(page, 'the API tab with a new key');
    await screenshot(page, 'partner-api-new-key-light-desktop');

    // Seen once: once dismissed, and after a reload, the key is nowhere on the page.
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('api-key-row')).toBeVisible();
    expect(await page.content()).not.toContain(key);

    // The key works from outside, and the list says when and from where.
    const balance = await balanceWith(key);
    expect(balance.status).toBe(200);
    expect(await balance.json()).toEqual(expect.objectContaining({ owed: '0.00', paid: '0.00' }));
    // Only its scopes: webhooks:manage was not given.
    const hooks = await fetch(`${baseURL()}/api/v1/webhook-endpoints`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(hooks.status).toBe(403);
    expect((await hooks.json()).code).toBe('insufficient_scope');
    await page.reload();
    await expect(page.getByTestId('api-key-last-used')).toContainText('from 127.0.0.1');

    // Revoked after a confirmation: the next call is 401.
    await page.getByRole('button', { name: 'Revoke Shop backend' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Revoke Shop backend?');
    await expectNoAxeFindings(page, 'the revoke confirmation');
    await screenshot(page, 'partner-api-revoke-light-desktop');
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByTestId('api-key-row')).toHaveAttribute('data-state', 'inactive');
    await expect(page.getByTestId('api-key-row')).toContainText('Revoked');
    const after = await balanceWith(key);
    expect(after.status).toBe(401);
    expect((await after.json()).code).toBe('invalid_api_key');

    // A webhook endpoint: its secret shown once, then a test event delivered and logged.
    const webhooks = page.getByTestId('webhooks-card');
    await webhooks.getByRole('button', { name: 'Add endpoint' }).click();
    await webhooks.getByLabel('URL').fill(receiverUrl());
    await webhooks.getByRole('checkbox', { name: /payout\.updated/ }).click();
    await webhooks.getByRole('button', { name: 'Add endpoint' }).last().click();
    const secretShown = page.getByTestId('new-webhook-secret-value');
    await expect(secretShown).toHaveText(/^whsec_/);
    const secret = (await secretShown.textContent())!;
    const row = page.getByTestId('webhook-endpoint-row');
    await expect(row).toContainText(receiverUrl());
    await expect(row).toContainText('card.updated');
    await expect(row).toContainText('payout.updated');
    await screenshot(page, 'partner-api-new-endpoint-light-desktop');
    await page.getByRole('button', { name: 'I have saved it' }).click();

    const before = received.length;
    await row.getByRole('button', { name: 'Send test event' }).click();
    const delivery = row.getByTestId('webhook-delivery').first();
    await expect(delivery).toContainText('webhook.test');
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(before);
    const message = received.at(-1)!;
    const event = new Webhook(secret).verify(message.body, message.headers) as { type: string };
    expect(event.type).toBe('webhook.test');
    // The log reads again until its first try is recorded.
    await expect
      .poll(() => delivery.getAttribute('data-status'), { timeout: 15_000 })
      .toBe('delivered');
    await expect(delivery).toContainText('HTTP 200');
    await expectNoAxeFindings(page, 'the API tab with a webhook log');
    await screenshot(page, 'partner-api-tab-light-desktop');

    // A new signing secret, after a confirmation: shown once; both secrets sign for a day.
    await row.getByRole('button', { name: 'New secret' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Make new secret' }).click();
    const rotated = page.getByTestId('rotated-webhook-secret-value');
    await expect(rotated).toHaveText(/^whsec_/);
    const newSecret = (await rotated.textContent())!;
    expect(newSecret).not.toBe(secret);
    const beforeRotated = received.length;
    await row.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBeGreaterThan(beforeRotated);
    const signedTwice = received.at(-1)!;
    new Webhook(newSecret).verify(signedTwice.body, signedTwice.headers);
    new Webhook(secret).verify(signedTwice.body, signedTwice.headers);
    await expectNoAxeFindings(page, 'the new signing secret');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await expect(page.getByTestId('rotated-webhook-secret')).toHaveCount(0);

    // The same tab in the dark and on a phone.
    for (const theme of ['light', 'dark'] as const) {
      const phone = await browser.newContext({
        baseURL: baseURL(),
        viewport: PHONE,
        colorScheme: theme,
      });
      await phone.addInitScript((t) => localStorage.setItem('theme', t), theme);
      await phone.addCookies(await context.cookies());
      const small = await phone.newPage();
      await openApiTab(small);
      await expect(small.getByTestId('api-key-row')).toBeVisible();
      const log = small.getByTestId('webhook-endpoint-row');
      await log.getByRole('button', { name: 'Show deliveries' }).click();
      await expect(log.getByTestId('webhook-delivery').first()).toContainText('HTTP 200');
      await expectNoSidewaysScroll(small);
      await expectNoAxeFindings(small, `the API tab (${theme}, 375 px)`);
      await screenshot(small, `partner-api-tab-${theme}-375`);
      await phone.close();
    }
    const dark = await browser.newContext({ baseURL: baseURL(), colorScheme: 'dark' });
    await dark.addInitScript(() => localStorage.setItem('theme', 'dark'));
    await dark.addCookies(await context.cookies());
    const darkPage = await dark.newPage();
    await openApiTab(darkPage);
    await darkPage
      .getByTestId('api-keys-card')
      .getByRole('button', { name: 'Create API key' })
      .click();
    await expectNoAxeFindings(darkPage, 'the API key form (dark)');
    await screenshot(darkPage, 'partner-api-form-dark-desktop');
    await dark.close();
    await context.close();
  });

  test('a seller below level 2 is told why there are no keys, and how to get there', async ({
    customer: { page },
  }) => {
    await openApiTab(page);
    const notice = page.getByTestId('api-level-notice');
    await expect(notice).toContainText('API keys are for sellers at verification level 2');
    await expect(notice.getByRole('link', { name: 'Verify now' })).toHaveAttribute(
      'href',
      '/verification',
    );
    await expect(page.getByTestId('api-keys-card')).toHaveCount(0);
    // The server refuses it too.
    const refused = await page.request.post('/api/api-keys', {
      data: { name: 'Too early', scopes: ['cards:read'] },
    });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).code).toBe('verification_required');
    await expectNoAxeFindings(page, 'the API tab below level 2');
    await screenshot(page, 'partner-api-level-notice-light-desktop');
  });
});
