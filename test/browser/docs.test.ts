// /docs in a real browser: Swagger UI as a user meets it. After "Authorize" with a token, every
// operation's "Execute" with the values the page pre-fills answers 200.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { launchChromium, SKIP_WITHOUT_CHROMIUM } from '../helpers/browser.ts';
import { startTestApp, type TestApp } from '../helpers/fixture.ts';

describe('Swagger UI at /docs in a browser', { skip: SKIP_WITHOUT_CHROMIUM }, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let operations: { tag: string; operationId: string }[];

  before(async () => {
    t = await startTestApp({ events: 3000, seed: 7 });
    const origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, { tags: string[]; operationId: string }>> };
    operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => ({ tag: op.tags[0]!, operationId: op.operationId })));
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    await page.goto(`${origin}/docs/`);
    await page.waitForSelector('.opblock', { timeout: 30000 });
    // Authorize: the bearer token, as a user pastes it.
    await page.click('.btn.authorize');
    await page.waitForSelector('.modal-ux input', { timeout: 10000 });
    await page.type('.modal-ux input', t.auth.authorization.replace('Bearer ', ''));
    await page.click('.modal-ux .auth-btn-wrapper .authorize');
    await page.click('.modal-ux .btn-done');
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the page is titled for the service and lists every operation', async () => {
    assert.match(await page.title(), /Vessel Activity Events Service/);
    for (const op of operations) assert.ok(await page.$(`#operations-${op.tag}-${op.operationId}`), op.operationId);
    assert.equal(await page.$('.topbar'), null, 'no top bar with the framework\'s logo and the document URL');
  });

  test('"Execute" with the pre-filled values answers 200 on every operation', async () => {
    // A click as the DOM gives it: some blocks sit below the fold.
    const click = (selector: string) => page.$eval(selector, (e) => (e as HTMLElement).click());
    for (const op of operations) {
      const block = `#operations-${op.tag}-${op.operationId}`;
      const open = async () => {
        // A reloaded page may open the block itself (deep linking keeps it in the URL).
        if (!(await page.$(`${block} .execute`))) await click(`${block} .opblock-summary-control`);
        await page.waitForSelector(`${block} .execute`, { timeout: 10000 });
        // Time for the block's part of the document to resolve (a person takes longer to click).
        await new Promise((resolve) => setTimeout(resolve, 500));
      };
      await open();
      // Swagger UI resolves an operation's part of the document when its block opens. An Execute
      // made before that ends fails inside the page ("OperationNotFoundError: Operation
      // get_readyz not found" in its console) and leaves the block unable to run, so a click that
      // gets no answer is retried on the page loaded again (the authorization persists), its
      // block opened again. The requests themselves take tens of milliseconds.
      const answered = `${block} .live-responses-table tbody .response .response-col_status`;
      for (let attempt = 1; ; attempt++) {
        await click(`${block} .execute`);
        try {
          await page.waitForSelector(answered, { timeout: 10_000 });
          break;
        } catch (e) {
          if (attempt === 3) throw e;
          await page.reload();
          await page.waitForSelector('.opblock', { timeout: 30000 });
          await open();
        }
      }
      const status = await page.$eval(`${block} .live-responses-table tbody .response .response-col_status`, (e) => e.textContent?.trim());
      const body = await page.$eval(`${block} .live-responses-table tbody .response .response-col_description`, (e) => e.textContent?.slice(0, 300));
      assert.equal(status, '200', `${op.operationId}: ${body}`);
      if (op.operationId === 'listEvents') {
        // The list pre-fills a page of several events (the other filters' examples are shown, not filled in).
        const answer = await page.$eval(`${block} .live-responses-table tbody .response .response-col_description`, (e) => e.textContent ?? '');
        const total = Number(/"total":\s*(\d+)/.exec(answer)?.[1]);
        assert.ok(total >= 2, `listEvents pre-filled found ${total} events`);
      }
      await click(`${block} .opblock-summary-control`);
    }
  });
});
