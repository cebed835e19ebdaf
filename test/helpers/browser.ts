// Debian's chromium, headless, for the browser tests (test/browser/): WebGL by SwiftShader, no
// sandbox (CI runs as root). CI installs chromium (.ci/run), so there a missing browser fails;
// elsewhere the suites say why they skip.
import { existsSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export const SKIP_WITHOUT_CHROMIUM = !CHROMIUM && !process.env.CI ? 'chromium is not installed (apt-get install chromium)' : false;

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ executablePath: CHROMIUM!, headless: true, args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--ignore-gpu-blocklist'] });
}
