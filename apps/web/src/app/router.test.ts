import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ console: 0 }));
vi.mock('../i18n/i18n', async (original) => ({
  ...(await original<typeof import('../i18n/i18n')>()),
  loadConsoleTexts: async () => {
    loaded.console += 1;
  },
}));

const { routes } = await import('./router');

function find(list: RouteObject[], path: string): RouteObject | undefined {
  for (const route of list) {
    if (route.path === path) return route;
    const inner = route.children && find(route.children, path);
    if (inner) return inner;
  }
  return undefined;
}

describe('routes', () => {
  it('the scenario editor, which has no shell, downloads the console error texts itself (a reload showed their keys)', async () => {
    const editor = find(routes, 'automations/editor');
    expect(editor?.lazy).toBeTypeOf('function');
    const before = loaded.console;
    await (editor?.lazy as () => Promise<unknown>)();
    expect(loaded.console).toBe(before + 1);
  });
});
