import { CAMPAIGN_LIST_STATUSES } from '@yado/contracts/campaigns';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_TEXTS } from '../../../i18n/allTexts';
import { campaignFixture, profileFixture } from '../../../test/fixtures';
import { mockFetch, renderWithProviders, signedInClient } from '../../../test/render';
import { PresetListPage } from '../../automations/pages/PresetListPage';
import { ScenarioListPage } from '../../automations/pages/ScenarioListPage';
import { CampaignListPage } from '../../campaigns/pages/CampaignListPage';
import { SegmentListPage } from '../../segmentation/pages/SegmentListPage';

/**
 * The platform holds no brand's data: the server refuses the granduser creating segments,
 * campaigns, scenarios and presets there (brand_host_required). Their lists say so beside a
 * disabled create, instead of a button that ends in a refusal; a brand's admin creates as ever.
 */

const HINT = {
  en: "The platform holds no brand's data. To create this, switch to a brand with Switch role.",
  ja: 'プラットフォームにはブランドのデータがありません。作成するには「ロールを切り替える」からブランドに切り替えてください。',
} as const;

const preset = {
  id: 'builtin:birthday',
  builtIn: 'birthday',
  name: 'Birthday',
  description: 'A mail on the birthday',
  emoji: '🎂',
  colour: 'blue',
  graph: { nodes: [], edges: [] },
  run: { period: { kind: 'long_run' } },
  hostId: null,
  editable: false,
  createdAt: null,
};

/** The lists: segments and scenarios empty, one campaign and one preset; or all of them empty. */
function answerLists({ empty = false } = {}) {
  const noScenario = { draft: 0, scheduled: 0, running: 0, completed: 0, stopped: 0, archived: 0 };
  const campaigns = empty ? [] : [campaignFixture({ status: 'sent', editable: false })];
  return mockFetch((method, url) => {
    if (method !== 'GET') return undefined;
    const page = { total: 0, page: 1, pageSize: 20 };
    if (url.pathname === '/v1/segments') return { body: { data: { items: [], ...page, timeZone: 'Asia/Tokyo' } } };
    if (url.pathname === '/v1/scenarios') return { body: { data: { items: [], ...page, byStatus: noScenario } } };
    if (url.pathname === '/v1/presets') return { body: { data: { items: empty ? [] : [preset] } } };
    if (url.pathname === '/v1/campaigns')
      return {
        body: {
          data: {
            items: campaigns,
            ...page,
            total: campaigns.length,
            headline: {
              byStatus: Object.fromEntries(CAMPAIGN_LIST_STATUSES.map((s) => [s, s === 'sent' ? campaigns.length : 0])),
              sent: 0,
              failed: 0,
              skipped: 0,
            },
          },
        },
      };
    return undefined;
  });
}

const PAGES = [
  { page: <SegmentListPage />, path: '/segmentation', actions: ['segmentation.actions.create'] },
  { page: <CampaignListPage />, path: '/campaign', actions: ['campaign.actions.create'] },
  {
    page: <ScenarioListPage />,
    path: '/automations/scenario',
    actions: ['automations.scenario.from_preset', 'automations.scenario.create'],
  },
  { page: <PresetListPage />, path: '/automations/preset', actions: ['automations.preset.create'] },
] as const;

/** The text of a nested key of the catalogue in `language`. */
function text(language: 'ja' | 'en', key: string): string {
  return key
    .split('.')
    .reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], ALL_TEXTS[language]) as string;
}

afterEach(() => {
  cleanup();
});

describe('creating brand data at the platform', () => {
  for (const language of ['en', 'ja'] as const) {
    it(`is disabled on every list with the hint to switch to a brand (${language})`, async () => {
      expect(text(language, 'errors.brand_host_required')).toBe(HINT[language]);
      answerLists();
      for (const { page, path, actions } of PAGES) {
        await renderWithProviders(page, {
          path,
          language,
          queryClient: signedInClient(profileFixture('grand_user', 'granduser', { language })),
        });
        // Said once, whether the list is empty (segments, scenarios) or not (campaigns, presets).
        await screen.findByTestId(/^(empty-state|campaign-table|preset-card)$/);
        const hints = screen.getAllByTestId('brand-host-required');
        expect(hints.length, path).toBe(1);
        expect(hints[0]?.textContent, path).toBe(HINT[language]);
        for (const key of actions) {
          const buttons = await screen.findAllByRole('button', { name: text(language, key) });
          for (const button of buttons) {
            expect((button as HTMLButtonElement).disabled, `${path} ${key}`).toBe(true);
            // The hint is what a screen reader hears with the button, and it names a real element.
            const hint = document.getElementById(button.getAttribute('aria-describedby') ?? '');
            expect(hint?.textContent, `${path} ${key}`).toBe(HINT[language]);
          }
          // A link button would still go to the editor: at the platform it is no link.
          expect(screen.queryByRole('link', { name: text(language, key) }), `${path} ${key}`).toBeNull();
        }
        if (path === '/automations/preset') {
          const use = screen.getByTestId('preset-use') as HTMLButtonElement;
          expect(use.textContent).toBe(text(language, 'automations.preset.use'));
          expect(use.disabled).toBe(true);
        }
        if (path === '/campaign') {
          // A duplicate is a create too: the row menu does not offer it.
          const row = await screen.findByTestId('campaign-row');
          fireEvent.click(within(row).getByTestId('campaign-menu'));
          await screen.findByTestId('campaign-action-statistics');
          expect(screen.queryByTestId('campaign-action-duplicate')).toBeNull();
        }
        cleanup();
      }
    });
  }

  it('says the hint once on an empty list: beside the header, with no second create in the empty state', async () => {
    answerLists({ empty: true });
    for (const { page, path, actions } of PAGES) {
      await renderWithProviders(page, { path, queryClient: signedInClient(profileFixture('grand_user', 'granduser')) });
      const empty = await screen.findByTestId('empty-state');
      expect(within(empty).queryByTestId('brand-host-required'), path).toBeNull();
      expect(within(empty).queryAllByRole('button'), path).toHaveLength(0);
      const hints = screen.getAllByTestId('brand-host-required');
      expect(hints.length, path).toBe(1);
      for (const key of actions) {
        const button = screen.getByRole('button', { name: text('en', key) }) as HTMLButtonElement;
        expect(button.disabled, `${path} ${key}`).toBe(true);
        expect(button.getAttribute('aria-describedby'), `${path} ${key}`).toBe(hints[0]?.id);
      }
      cleanup();
    }
  });

  it("is offered as ever to a brand's admin, without the hint", async () => {
    answerLists();
    for (const { page, path, actions } of PAGES) {
      await renderWithProviders(page, { path, queryClient: signedInClient(profileFixture('brand', 'admin')) });
      const first = await screen.findAllByText(text('en', actions[0]));
      expect(first.length, path).toBeGreaterThan(0);
      for (const key of actions)
        for (const element of screen.getAllByText(text('en', key))) {
          const control = element.closest('a, button') as HTMLButtonElement | HTMLAnchorElement;
          expect(control.hasAttribute('disabled'), `${path} ${key}`).toBe(false);
        }
      expect(screen.queryByTestId('brand-host-required'), path).toBeNull();
      if (path === '/automations/preset') {
        await waitFor(() => expect((screen.getByTestId('preset-use') as HTMLButtonElement).disabled).toBe(false));
      }
      if (path === '/campaign') {
        fireEvent.click(within(await screen.findByTestId('campaign-row')).getByTestId('campaign-menu'));
        expect(await screen.findByTestId('campaign-action-duplicate')).toBeTruthy();
      }
      cleanup();
    }
  });
});
