#!/usr/bin/env node
// Launcher: runs the compiled CLI (dist/, built by `npm run build`, which `npm install` runs).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('vessel-events: the compiled build (dist/) is missing; run "npm run build" (npm install does it)\n');
  process.exit(1);
}
await import(main.href);
