import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, type OpenedPage } from './support/browser';
import { serveFixture } from './support/component-server';

/** The TabBar of apps/web in a real browser: which tabs fit, the overflow menu, and its highlight. */

const TEST_TIMEOUT_MS = 60_000;
const ALL_TABS = ['Summary', 'Network', 'Storage', 'Monitor', 'Install', 'Edit', 'Delete', 'Command', 'Servers'];
const WIDE = { width: 1400, height: 600 };
const NARROW = { width: 420, height: 700 };

let fixture: { url: string; close(): Promise<void> };
let browser: Browser;
const opened: OpenedPage[] = [];

beforeAll(async () => {
  [fixture, browser] = await Promise.all([serveFixture('tab-bar'), launchBrowser()]);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map(({ context }) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await fixture?.close();
});

async function tabBarAt(viewport: { width: number; height: number }, path = '/devices/abc'): Promise<Page> {
  const page = await openPage(browser, viewport);
  opened.push(page);
  await page.page.goto(`${fixture.url}/?path=${encodeURIComponent(path)}`);
  await bar(page.page).getByRole('link').first().waitFor();
  await settled(page.page);
  return page.page;
}

const bar = (page: Page) => page.getByRole('navigation', { name: 'Device sections' });
const moreButton = (page: Page) => bar(page).getByRole('button', { name: 'More tabs' });

/** OverflowList measures over a few frames; wait until the visible tabs stop changing. */
async function settled(page: Page): Promise<void> {
  let previous = '';
  for (let i = 0; i < 20; i++) {
    const current = (await visibleTabs(page)).join('|') + (await moreButton(page).count());
    if (current === previous) return;
    previous = current;
    await page.waitForTimeout(100);
  }
}

async function visibleTabs(page: Page): Promise<string[]> {
  return (await bar(page).getByRole('link').allInnerTexts()).map((t) => t.trim());
}

async function hiddenTabs(page: Page): Promise<string[]> {
  await moreButton(page).click();
  const items = page.getByRole('menu').getByRole('menuitem');
  await items.first().waitFor();
  return (await items.allInnerTexts()).map((t) => t.trim());
}

describe('TabBar', () => {
  it(
    'shows every tab on one row, 16 px apart, when there is room',
    async () => {
      const page = await tabBarAt(WIDE);
      expect(await visibleTabs(page)).toEqual(ALL_TABS);
      expect(await moreButton(page).count()).toBe(0);
      const boxes = await bar(page)
        .getByRole('link')
        .evaluateAll((links) => links.map((l) => l.getBoundingClientRect()).map((r) => ({ x: r.x, right: r.right, top: r.top })));
      for (let i = 1; i < boxes.length; i++) {
        expect(boxes[i]!.top).toBe(boxes[0]!.top);
        expect(Math.round(boxes[i]!.x - boxes[i - 1]!.right)).toBe(16);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'moves the tabs that do not fit into the three-dots menu, in order, on a single row',
    async () => {
      const page = await tabBarAt(NARROW);
      const visible = await visibleTabs(page);
      expect(visible.length).toBeGreaterThan(0);
      expect(visible.length).toBeLessThan(ALL_TABS.length);
      const hidden = await hiddenTabs(page);
      expect([...visible, ...hidden]).toEqual(ALL_TABS);

      // Everything left in the bar stays on one row (same vertical centre) inside the window.
      const rects = await bar(page)
        .locator('a, button')
        .evaluateAll((els) =>
          els.map((e) => e.getBoundingClientRect()).map((r) => ({ middle: r.top + r.height / 2, right: r.right })),
        );
      expect(new Set(rects.map((r) => Math.round(r.middle))).size).toBe(1);
      expect(Math.max(...rects.map((r) => r.right))).toBeLessThanOrEqual(NARROW.width);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'does not highlight the menu while the active tab is visible',
    async () => {
      const page = await tabBarAt(NARROW, '/devices/abc');
      expect(await bar(page).getByRole('link', { name: 'Summary' }).getAttribute('aria-current')).toBe('page');
      expect(await moreButton(page).getAttribute('data-active')).toBeNull();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'highlights the menu when the active tab is one of the hidden ones, and navigates from it',
    async () => {
      const page = await tabBarAt(NARROW, '/devices/abc/servers');
      expect(await visibleTabs(page)).not.toContain('Servers');
      expect(await moreButton(page).getAttribute('data-active')).toBe('true');

      await hiddenTabs(page);
      const menu = page.getByRole('menu');
      expect(await menu.getByRole('menuitem', { name: 'Servers' }).getAttribute('aria-current')).toBe('page');
      await menu.getByRole('menuitem', { name: 'Command' }).click();
      await page.getByTestId('location').filter({ hasText: '/devices/abc/command' }).waitFor();
      expect(await moreButton(page).getAttribute('data-active')).toBe('true');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    're-measures when the window is resized',
    async () => {
      const page = await tabBarAt(WIDE);
      expect(await moreButton(page).count()).toBe(0);
      await page.setViewportSize(NARROW);
      await moreButton(page).waitFor();
      await settled(page);
      expect((await visibleTabs(page)).length).toBeLessThan(ALL_TABS.length);
      await page.setViewportSize(WIDE);
      await moreButton(page).waitFor({ state: 'detached' });
      await settled(page);
      expect(await visibleTabs(page)).toEqual(ALL_TABS);
    },
    TEST_TIMEOUT_MS,
  );
});
