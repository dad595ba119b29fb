import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, Page } from 'playwright-core';
import { request as playwrightRequest } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { freePort } from '../../scripts/lib/free-port';
import { type BuiltServer, startBuiltServer } from '../../scripts/lib/processes';
import { signInStaffOverHttp } from '../../scripts/lib/staff-sign-in';
import { ACH, ACH_ENV, achReturnFile, BANK, nacha } from '../lib/ach';
import { type EvmNode, startEvmNode, TOKEN } from '../lib/evm-chain';
import { pdfText } from '../pdf-text';
import { uploadPhotoByApi } from './api-helpers';
import { expectNoAxeFindings } from './axe';
import {
  DESKTOP,
  expectNoSidewaysScroll,
  newAppContext,
  newCustomerPage,
  PHONE,
  screenshot,
  type Theme,
  test,
  uniqueEmail,
} from './fixtures';
import { startMailSink, sunkMail } from './mail-sink';

/**
 * The payout screens against rails that really pay (issue 40): a server of its own, started here
 * from the build with the USDT rail pointed at a local chain (ganache, an OpenZeppelin ERC-20
 * deployed at the start) and the ACH rail's bank details, so the shared e2e server and the other
 * browser tests keep the manual rails. Finance turns the USDT rail on and a seller's approved card
 * is paid on chain while the seller watches it go queued → sent (hash) → confirmed; finance pays
 * bank cards in an ACH batch, downloads its NACHA file (parsed back with node-nacha), uploads a
 * return file and settles the batch.
 */
const EXPLORER = 'https://testnet.bscscan.com/tx/';
const CONFIRMATIONS = 3;
const FINANCE_PASSWORD = 'a long finance passphrase';

const env = {} as {
  dataDir: string;
  chain: EvmNode;
  server: BuiltServer;
  mail: Awaited<ReturnType<typeof startMailSink>>;
  mailDir: string;
  /** Signed-in sessions (`cb.sid=...`). */
  ownerCookie: string;
  financeCookie: string;
  owner: APIRequestContext;
};

beforeAll(async () => {
  env.dataDir = mkdtempSync(path.join(tmpdir(), 'cb-e2e-rails-'));
  env.mailDir = path.join(env.dataDir, 'mail-received');
  env.mail = await startMailSink(env.mailDir);
  env.chain = await startEvmNode(0n);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // A fresh embedded database's first start (its migrations) on a loaded machine can pass a
  // minute; this second server of the run gets longer unless told otherwise.
  process.env.SERVER_START_SECONDS ||= '240';
  env.server = await startBuiltServer(
    {
      DATA_DIR: env.dataDir,
      LOG_LEVEL: 'warn',
      APP_URL: base,
      SMTP_URL: env.mail.url,
      NOTIFICATION_EMAIL_DELAY_SECONDS: '1',
      LIMIT_SIGNUPS_PER_ADDRESS: '100000',
      LIMIT_UPLOADS_PER_HOUR: '100000',
      PAYOUT_HOLD_NEW_METHOD_HOURS: '0',
      PAYOUT_HOLD_NEW_ACCOUNT_HOURS: '0',
      ...env.chain.env(CONFIRMATIONS),
      ...ACH_ENV,
    },
    { port },
  );
  const printed = env.server.output().match(/email:\s+(\S+)[\s\S]*?password:\s+(\S+)/);
  if (!printed)
    throw new Error(`the first start printed no staff account:\n${env.server.output()}`);
  env.ownerCookie = (
    await signInStaffOverHttp(base, { email: printed[1]!, password: printed[2]! })
  ).cookie;
  env.owner = await playwrightRequest.newContext({
    baseURL: base,
    extraHTTPHeaders: { cookie: env.ownerCookie, origin: base },
  });
  // The owner invites finance, who accepts and signs in (the authenticator enrolled).
  const email = uniqueEmail('finance');
  const invited = await env.owner.post('/api/admin/staff/invitations', {
    data: { email, role: 'finance' },
  });
  if (invited.status() !== 201) throw new Error(await invited.text());
  let link: string | undefined;
  for (let i = 0; i < 100 && !link; i++) {
    link = sunkMail(env.mailDir)
      .find((m) => m.to.includes(email))
      ?.text.match(/https?:\/\/\S+/)?.[0];
    if (!link) await new Promise((r) => setTimeout(r, 100));
  }
  const token = new URL(link!).searchParams.get('token');
  const accepted = await env.owner.post('/api/staff-invitations/accept', {
    data: { token, password: FINANCE_PASSWORD, firstName: 'Fran', lastName: 'Finance' },
  });
  if (accepted.status() !== 200) throw new Error(await accepted.text());
  env.financeCookie = (
    await signInStaffOverHttp(base, { email, password: FINANCE_PASSWORD })
  ).cookie;
}, 360_000);

afterAll(async () => {
  await env.owner?.dispose();
  await env.server?.stop();
  await env.chain?.stop();
  await env.mail?.close();
  if (env.dataDir) rmSync(env.dataDir, { recursive: true, force: true });
});

async function contextFor(
  browser: Browser,
  cookie: string | null,
  theme: Theme = 'light',
  viewport = DESKTOP,
): Promise<BrowserContext> {
  const context = await newAppContext(browser, { theme, viewport, base: env.server.base });
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: env.server.base }]);
  }
  return context;
}

/** Finance's Payouts tab, loaded. */
async function financePage(browser: Browser, theme: Theme = 'light', viewport = DESKTOP) {
  const page = await (await contextFor(browser, env.financeCookie, theme, viewport)).newPage();
  await page.goto('/admin?tab=payouts');
  await expect(page.getByRole('heading', { name: 'Payout rails' })).toBeVisible();
  await expect(page.getByTestId('rail-card')).toHaveCount(3);
  return page;
}

/** A new seller in a browser of their own. */
async function sellerPage(browser: Browser, theme: Theme = 'light', viewport = DESKTOP) {
  const base = env.server.base;
  return newCustomerPage(
    browser,
    'rails',
    { firstName: 'Sam', lastName: 'Seller' },
    { theme, viewport, base },
  );
}

/** A seller's $100 Amazon card paid to `method`, approved by the owner. */
async function approvedCard(seller: Page, method: object) {
  const created = await seller.request.post('/api/payment-methods', { data: method });
  if (!created.ok()) throw new Error(await created.text());
  const { id: paymentMethodId } = await created.json();
  const objectPath = await uploadPhotoByApi(seller.request);
  const card = await seller.request.post('/api/transactions', {
    data: {
      cardType: 'Amazon',
      cardValue: '100',
      cardCondition: 'brand_new',
      cardFormat: 'egift',
      paymentMethodId,
      imageUrls: [objectPath],
    },
  });
  if (card.status() !== 201) throw new Error(await card.text());
  const { id, expectedPayout } = (await card.json()) as { id: string; expectedPayout: string };
  const detail = await (await env.owner.get(`/api/admin/transactions/${id}`)).json();
  const approved = await env.owner.patch(`/api/admin/transactions/${id}`, {
    data: { expectedUpdatedAt: detail.updatedAt, status: 'completed' },
  });
  if (!approved.ok()) throw new Error(await approved.text());
  return { id, expectedPayout };
}

/** The seller's card opened in History (its details dialog), left open to watch it change. */
async function openCard(seller: Page, id: string) {
  await seller.goto(`/history?card=${id}`);
  const dialog = seller.getByTestId('transaction-details');
  await expect(dialog).toBeVisible();
  return dialog;
}

describe('payouts on rails, in the browser (issue 40)', () => {
  test('finance turns the USDT rail on; an approved card is paid on chain, and its seller sees it queued, sent with its hash, then confirmed, live', async ({
    browser,
  }) => {
    const { page: seller } = await sellerPage(browser);
    const wallet = privateKeyToAccount(generatePrivateKey()).address;
    const card = await approvedCard(seller, {
      type: 'usdt_bep20',
      accountName: 'My wallet',
      identifier: wallet,
    });
    const dialog = await openCard(seller, card.id);
    await expect(dialog.getByTestId('payout-progress')).toHaveCount(0);

    // The rails: manual always on, ACH and USDT configured, USDT's hot wallet with gas only.
    const finance = await financePage(browser);
    const usdt = finance.locator('[data-testid=rail-card][data-rail=usdt_bep20]');
    await expect(usdt).toContainText('Configured');
    await expect(usdt.getByTestId('wallet-token')).toHaveText('0 USDT');
    await expect(usdt.getByTestId('wallet-gas')).toHaveText(/^\d[\d,]*(\.\d+)? BNB$/);
    const toggle = usdt.getByTestId('auto-payout-switch');
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expectNoAxeFindings(finance, 'the rails panel');
    await screenshot(finance, 'payouts-rails-off');

    // Turned on, after a confirmation.
    await toggle.click();
    const confirm = finance.getByRole('alertdialog');
    await expect(confirm).toContainText('Turn on automatic payout for USDT (BEP-20)?');
    await expectNoAxeFindings(finance, 'the automatic payout confirmation');
    await confirm.getByRole('button', { name: 'Turn on' }).click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(finance.getByTestId('toast')).toContainText('Automatic payout is on for USDT');

    // Queued at once; the wallet holds no token, so it waits and finance sees why.
    const progress = dialog.getByTestId('payout-progress');
    await expect
      .poll(() => progress.getAttribute('data-status'), { timeout: 20_000 })
      .toBe('queued');
    await expect(progress.getByTestId('payout-step')).toHaveText('Queued');
    await screenshot(seller, 'payouts-seller-queued');
    const row = finance.getByTestId('disbursement-row').first();
    await expect(row).toHaveAttribute('data-status', 'queued');
    await expect
      .poll(
        () =>
          row
            .getByTestId('disbursement-error')
            .textContent()
            .catch(() => ''),
        {
          timeout: 20_000,
        },
      )
      .toContain('hot wallet is short');
    await expect(usdt.getByTestId('wallet-short')).toContainText(
      `The queued payouts need ${card.expectedPayout} USDT`,
    );
    await expect(row.getByRole('button', { name: /^Cancel the payout/ })).toBeVisible();
    await expectNoAxeFindings(finance, 'the payouts list with a payout waiting');
    await screenshot(finance, 'payouts-list-waiting');

    // Funded: the worker pays it (its next try is due 30 s after the shortfall).
    await env.chain.fundHotWallet(500n * TOKEN);
    await expect
      .poll(() => progress.getAttribute('data-status'), { timeout: 60_000 })
      .toBe('submitted');
    const [transfer, ...more] = await env.chain.transfersTo(wallet);
    expect(more).toEqual([]);
    const units = BigInt(Math.round(Number(card.expectedPayout) * 100)) * 10n ** 16n;
    expect(transfer!.value).toBe(units);
    expect(await env.chain.balanceOf(wallet)).toBe(units);
    const link = progress.getByTestId('payout-reference');
    await expect(link).toHaveAttribute('href', `${EXPLORER}${transfer!.hash}`);
    await expect(link).toContainText(transfer!.hash.slice(0, 10));
    await expect(progress.getByTestId('payout-step')).toHaveText('Sent');
    await expect(dialog.getByTestId('detail-reference')).toHaveText(transfer!.hash);
    await screenshot(seller, 'payouts-seller-sent');
    // The receipt carries the hash as the payout reference (a long value may wrap in the PDF).
    const receipt = await seller.request.get(`/api/transactions/${card.id}/receipt`);
    expect(receipt.status()).toBe(200);
    const printed = (await pdfText(await receipt.body())).join('');
    expect(printed).toContain(`Payout reference${transfer!.hash}`);
    await expect(row).toHaveAttribute('data-status', 'submitted');
    await expect(row.getByTestId('disbursement-reference')).toHaveAttribute(
      'href',
      `${EXPLORER}${transfer!.hash}`,
    );

    // Enough blocks on top: confirmed, on the card and in the list, without a reload.
    await env.chain.mine(CONFIRMATIONS);
    await expect
      .poll(() => progress.getAttribute('data-status'), { timeout: 30_000 })
      .toBe('confirmed');
    await expect(progress.getByTestId('payout-step')).toHaveText('Confirmed');
    const steps = dialog.getByTestId('timeline-step');
    await expect(steps.filter({ hasText: 'Payout queued' })).toContainText(
      'To be sent by USDT (BEP-20)',
    );
    await expect(steps.filter({ hasText: 'Payment sent' })).toContainText(transfer!.hash);
    await expect(steps.filter({ hasText: 'Payment confirmed' })).toHaveCount(1);
    await expectNoAxeFindings(seller, 'the seller’s card, payout confirmed');
    await screenshot(seller, 'payouts-seller-confirmed');
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('confirmed');
    expect(await env.chain.transfersTo(wallet)).toHaveLength(1);

    // Off again, so the ACH test's cards are the only ones paid from here on.
    await toggle.click();
    await finance.getByRole('alertdialog').getByRole('button', { name: 'Turn off' }).click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await seller.context().close();
    await finance.context().close();
  }, 240_000);

  test('finance pays bank cards in an ACH batch: the NACHA file downloads and parses, a return fails one with the reason, settling confirms the other', async ({
    browser,
  }) => {
    const { page: paid, email: paidEmail } = await sellerPage(browser);
    const { page: returned, email: returnedEmail } = await sellerPage(browser);
    const good = await approvedCard(paid, BANK);
    const bad = await approvedCard(returned, BANK);
    const byHand = await approvedCard(returned, {
      type: 'paypal',
      accountName: 'Sam Seller',
      identifier: 'sam.paypal@example.com',
    });

    // Finance ticks the three cards and pays them by rail: the bank ones are queued on ACH, the
    // PayPal one is refused in words.
    const finance = await financePage(browser);
    for (const [email, cards] of [
      [paidEmail, 1],
      [returnedEmail, 2],
    ] as const) {
      const rows = finance.getByTestId('payout-row').filter({ hasText: email });
      // The list may still be loading (CI runs this beside two API lanes): `all()` does not wait.
      await expect(rows).toHaveCount(cards);
      for (const checkbox of await rows.getByRole('checkbox').all()) await checkbox.check();
    }
    await finance.getByTestId('pay-by-rail').click();
    await finance.getByRole('alertdialog').getByRole('button', { name: 'Queue payouts' }).click();
    const result = finance.getByTestId('pay-by-rail-result');
    await expect(result).toContainText('2 payouts queued');
    await expect(result).toContainText('by ACH bank transfer');
    await expect(result.getByTestId('pay-by-rail-refused')).toContainText(
      'Not paid by a rail: This payment method is paid by hand',
    );
    await expectNoAxeFindings(finance, 'the Pay by rail result');
    await screenshot(finance, 'payouts-pay-by-rail');

    // On a phone the batch button's long label wraps inside the page, not past its edge.
    const desktop = finance.viewportSize()!;
    await finance.setViewportSize({ width: 375, height: 800 });
    const button = (await finance.getByTestId('build-ach-batch').boundingBox())!;
    expect(button.x + button.width).toBeLessThanOrEqual(375 - 16);
    await screenshot(finance, 'payouts-ach-phone');
    await finance.setViewportSize(desktop);

    // The batch: built after a confirmation, its file downloaded and read back.
    await finance.getByTestId('build-ach-batch').click();
    await finance.getByRole('alertdialog').getByRole('button', { name: 'Build batch' }).click();
    await expect(finance.getByTestId('toast')).toContainText('Batch built: 2 payouts');
    const batch = finance.getByTestId('ach-batch').first();
    await expect(batch).toContainText('Waiting for the bank');
    const downloading = finance.waitForEvent('download');
    await batch.getByTestId('ach-download').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(
      /^cardbridge-ach-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.txt$/,
    );
    const file = readFileSync((await download.path())!, 'utf8');
    const entries = nacha.from(file).data.batches.flatMap((b) => b.entries);
    expect(entries).toHaveLength(2);
    const sent = (await (await env.owner.get('/api/admin/disbursements?status=submitted')).json())
      .items as { reference: string; amount: string; transactionIds: string[] }[];
    for (const entry of entries) {
      expect(
        `${String(entry.receivingDFIIdentification).padStart(8, '0')}${entry.checkDigit}`,
      ).toBe(BANK.routingNumber);
      expect(entry.dfiAccount.trim()).toBe(BANK.accountNumber);
      const payout = sent.find((d) => d.reference === String(entry.traceNumber).padStart(15, '0'));
      expect(payout).toBeDefined();
      expect(entry.amount).toBe(Math.round(Number(payout!.amount) * 100));
    }
    const traceOf = (id: string) => sent.find((d) => d.transactionIds.includes(id))!.reference;

    // The sellers see their payouts sent, with the trace number.
    const badCard = await openCard(returned, bad.id);
    await expect(badCard.getByTestId('payout-progress')).toHaveAttribute(
      'data-status',
      'submitted',
    );
    await expect(badCard.getByTestId('payout-reference')).toHaveText(traceOf(bad.id));

    // The bank returns one (R03): finance sees which and why; its seller is asked to fix it.
    const returnFile = path.join(env.dataDir, 'returns.ach');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(returnFile, achReturnFile(ACH, [{ trace: traceOf(bad.id), code: 'R03' }]));
    await finance.getByLabel('Return file from the bank').setInputFiles(returnFile);
    await finance.getByTestId('ach-returns-submit').click();
    const returnedList = finance.getByTestId('ach-returned');
    await expect(returnedList).toHaveCount(1);
    await expect(returnedList).toContainText(returnedEmail);
    await expect(returnedList).toContainText('R03: no account or unable to locate account');
    const failedRow = finance
      .getByTestId('disbursement-row')
      .filter({ hasText: returnedEmail })
      .filter({ hasText: 'ACH' });
    await expect(failedRow).toHaveAttribute('data-status', 'failed');
    await expect(failedRow.getByRole('button', { name: /^Retry the payout/ })).toBeVisible();
    await expectNoAxeFindings(finance, 'the ACH batch and the return');
    await screenshot(finance, 'payouts-ach-returned');

    const failed = badCard.getByTestId('payout-progress');
    await expect(failed).toHaveAttribute('data-status', 'failed');
    await expect(failed).toContainText(
      'Payout failed: R03: no account or unable to locate account. Please check your payment method',
    );
    await expect(failed.getByRole('link', { name: 'payment method' })).toHaveAttribute(
      'href',
      '/payment-methods',
    );
    await expectNoAxeFindings(returned, 'the seller’s card, payout failed');
    await screenshot(returned, 'payouts-seller-failed');

    // Settled: the other payout is confirmed, the batch says so.
    await batch.getByTestId('ach-settle').click();
    await finance.getByRole('alertdialog').getByRole('button', { name: 'Mark settled' }).click();
    await expect(finance.getByTestId('toast').last()).toContainText('1 payout confirmed');
    await expect(batch).toContainText('Settled');
    const goodCard = await openCard(paid, good.id);
    await expect(goodCard.getByTestId('payout-progress')).toHaveAttribute(
      'data-status',
      'confirmed',
    );
    await expect(goodCard.getByTestId('payout-reference')).toHaveText(traceOf(good.id));
    // The PayPal card is still to be paid by hand.
    await expect(finance.getByTestId('payout-row').filter({ hasText: returnedEmail })).toHaveCount(
      2,
    );
    expect(byHand.id).toBeTruthy();
    for (const page of [finance, paid, returned]) await page.context().close();
  }, 240_000);

  for (const theme of ['light', 'dark'] as const) {
    test(`the payout screens in the ${theme} theme, on a desktop and a phone`, async ({
      browser,
    }) => {
      // Four sellers' bank cards, one in each state: queued, sent, failed (returned), confirmed.
      const sellers: { page: Page; card: { id: string } }[] = [];
      for (let i = 0; i < 4; i++) {
        const { page } = await sellerPage(browser, theme);
        sellers.push({ page, card: await approvedCard(page, BANK) });
      }
      const queued = await env.owner.post('/api/admin/disbursements', {
        data: { transactionIds: sellers.map((s) => s.card.id) },
      });
      const payouts = (await queued.json()).disbursements as {
        id: string;
        transactionIds: string[];
      }[];
      const payoutOf = (i: number) =>
        payouts.find((d) => d.transactionIds.includes(sellers[i]!.card.id))!.id;
      const settled = await env.owner.post('/api/admin/ach-batches', {
        data: { disbursementIds: [payoutOf(3)] },
      });
      await env.owner.post(`/api/admin/ach-batches/${(await settled.json()).id}/settled`);
      await env.owner.post('/api/admin/ach-batches', {
        data: { disbursementIds: [payoutOf(1), payoutOf(2)] },
      });
      const returnedPayout = await (
        await env.owner.get(`/api/admin/disbursements/${payoutOf(2)}`)
      ).json();
      const returned = await env.owner.post('/api/admin/ach-returns', {
        multipart: {
          file: {
            name: 'returns.ach',
            mimeType: 'text/plain',
            buffer: Buffer.from(
              achReturnFile(ACH, [{ trace: returnedPayout.reference, code: 'R01' }]),
            ),
          },
        },
      });
      expect((await returned.json()).returned).toHaveLength(1);
      const states = ['queued', 'submitted', 'failed', 'confirmed'];
      for (const [size, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        for (const [i, { page, card }] of sellers.entries()) {
          await page.setViewportSize(viewport);
          const dialog = await openCard(page, card.id);
          const progress = dialog.getByTestId('payout-progress');
          await expect(progress).toHaveAttribute('data-status', states[i]!);
          await expectNoSidewaysScroll(page);
          await expectNoAxeFindings(page, `the seller's card, ${states[i]} (${theme}, ${size})`);
          await screenshot(page, `payouts-seller-${states[i]}-${theme}-${size}`, false);
        }
        // The History list itself (a phone's cards, a desktop's table) with the payout line.
        await sellers[2]!.page.goto('/history');
        const listed = sellers[2]!.page.getByTestId(
          size === 'phone' ? 'history-card' : 'history-row',
        );
        await expect(listed.getByTestId('payout-progress')).toHaveAttribute(
          'data-status',
          'failed',
        );
        await expect(listed.getByTestId('payout-progress')).toContainText(
          'R01: insufficient funds',
        );
        await expectNoAxeFindings(
          sellers[2]!.page,
          `History with a failed payout (${theme}, ${size})`,
        );
        await screenshot(sellers[2]!.page, `payouts-history-failed-${theme}-${size}`, false);
        const finance = await financePage(browser, theme, viewport);
        await expect(finance.getByTestId('disbursement-row').first()).toBeVisible();
        await expectNoSidewaysScroll(finance);
        await expectNoAxeFindings(finance, `the Payouts tab (${theme}, ${size})`);
        await finance.getByTestId('payout-rails').scrollIntoViewIfNeeded();
        await screenshot(finance, `payouts-tab-${theme}-${size}`);
        await finance.getByTestId('disbursements').scrollIntoViewIfNeeded();
        await screenshot(finance, `payouts-list-${theme}-${size}`, false);
        await finance.context().close();
      }
      for (const { page } of sellers) await page.context().close();
    }, 300_000);
  }
});
