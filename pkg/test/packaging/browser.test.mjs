// www/ in a real browser: headless Chromium loads the page, which imports the ESM entry
// straight from pkg/dist (inline wasm, instantiated synchronously on the main thread) and
// runs 40 turns of AgentRunner with every rule on.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { launchChromium, loadPage, origin, repoRoot, serve } from './harness.mjs';

it('www/ runs the rules in headless Chromium', async () => {
  const [browser, server] = await Promise.all([launchChromium(), serve(repoRoot)]);
  try {
    const { result: html, problems } = await loadPage(browser, `${origin(server)}/www/scripted.html?autorun`, {
      ready: async (page, timeout) => {
        await page.waitForFunction(() => /turns;/.test(document.getElementById('status')?.textContent ?? ''), null, { timeout });
        return page.content();
      },
    });
    assert.deepEqual(problems, []);
    assert.match(html, /<span id="status">40 turns; 40 log entries; \d+ raw outputs kept<\/span>/);
    const rows = html.match(/<tr><td class="num">/g) ?? [];
    assert.equal(rows.length, 40);
    assert.match(html, /spec refresh, context refresh/);
    assert.match(html, /truncation \(1\)/);
  } finally {
    await browser.close();
    server.close();
  }
});
