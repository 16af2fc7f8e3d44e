/**
 * Headless Chromium for the console's browser test: Debian's chromium (never a downloaded
 * browser), driven by playwright-core; axe-core accessibility checks; screenshots kept under
 * tmp/console-screenshots/ (git-ignored).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'tmp', 'console-screenshots');
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** The flags this machine's closed network needs (no background fetches, no QUIC), plus no sandbox as root. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails, saying how to install it, when the browser is missing: the browser test never passes without a browser. */
export function requireChromium(): string {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: the console's browser test needs it. Install Debian's package (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH to a Chromium binary.`,
    );
  }
  return CHROMIUM;
}

export interface ConsoleBrowser {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /** uncaught page errors and console errors, for the test to assert there were none */
  readonly errors: string[];
  close(): Promise<void>;
}

export async function launchConsoleBrowser(): Promise<ConsoleBrowser> {
  const executablePath = requireChromium();
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  // playwright-core adds --user-data-dir from this folder (a fresh, empty profile per run)
  const browser = await chromium.launch({ executablePath, args: FLAGS, headless: true });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  // Failed loads are recorded with their URL (the console's own "Failed to load resource" line has none).
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`HTTP ${r.status()} ${r.request().method()} ${r.url()}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console error: ${m.text()}`);
  });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    browser,
    context,
    page,
    errors,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export interface AxeFinding {
  readonly page: string;
  readonly id: string;
  readonly impact: string | null | undefined;
  readonly help: string;
  readonly nodes: string[];
}

/** axe-core on the page as it is (WCAG 2.x A and AA rules and best practices); every finding is returned, the report is written next to the screenshots. */
export async function axeCheck(page: Page, name: string): Promise<AxeFinding[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const findings = r.violations.map((v) => ({
    page: name,
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
  writeFileSync(
    join(SCREENSHOT_DIR, `${name}.axe.json`),
    JSON.stringify({ url: page.url(), passes: r.passes.length, violations: findings }, null, 2),
  );
  return findings;
}

/** Serious and critical findings only: what the test refuses. */
export const blocking = (findings: readonly AxeFinding[]): AxeFinding[] =>
  findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');

/** The part of a canvas element the pixel count reads (the root tsconfig has no DOM types). */
interface CanvasLike {
  readonly width: number;
  readonly height: number;
  getContext(kind: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
}

/** How many pixels of the element's canvases differ from the background: a drawn chart has many. */
export async function drawnPixels(page: Page, selector: string): Promise<number> {
  return page.$$eval(`${selector} canvas`, (canvases) => {
    let drawn = 0;
    for (const c of canvases as unknown as CanvasLike[]) {
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0 || c.height === 0) continue;
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      for (let i = 0; i < data.length; i += 4)
        if (data[i + 3]! > 0 && (data[i]! < 240 || data[i + 1]! < 240 || data[i + 2]! < 240)) drawn++;
    }
    return drawn;
  });
}
