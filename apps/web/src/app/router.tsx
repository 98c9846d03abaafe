import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { FullPageSpinner } from '../modules/ui/components/FullPageSpinner';
import { RouteErrorPage } from '../modules/areas/pages/RouteErrorPage';
import type { TAreaId } from '../modules/shell/navigation';
import { loadAreaTexts, loadConsoleTexts } from '../i18n/i18n';
import { requireSession } from './authLoader';

// Every page is its own chunk: /login downloads neither the shell nor any area.
const section = (areaIds: TAreaId[]) => async () => {
  const { SectionIndexPage } = await import('../modules/areas/pages/SectionIndexPage');
  return { Component: () => <SectionIndexPage areaIds={areaIds} /> };
};
/**
 * A page of an area, shown only to roles the area is offered to, once its code and the texts it
 * reads (areas under i18n/areas/) are downloaded, with the signed-in console's error texts: a page
 * outside the shell (the scenario editor) opened directly or reloaded would otherwise show their keys.
 */
const guarded = (areaId: TAreaId, texts: string[], load: () => Promise<ComponentType>) => async () => {
  const [{ AreaGuard }, Page] = await Promise.all([
    import('../modules/areas/components/AreaGuard'),
    load(),
    loadAreaTexts(...texts),
    loadConsoleTexts(),
  ]);
  return {
    Component: () => (
      <AreaGuard areaId={areaId}>
        <Page />
      </AreaGuard>
    ),
  };
};
const HOST_AREAS = { brand: 'brand_list', hotel_group: 'hotel_group_list', hotel: 'hotel_list' } as const;
const hostList = (level: keyof typeof HOST_AREAS) =>
  guarded(HOST_AREAS[level], ['management', 'users'], async () => {
    const { HostListPage } = await import('../modules/management/pages/HostListPage');
    return () => <HostListPage level={level} />;
  });
const hostDetail = (level: keyof typeof HOST_AREAS) =>
  guarded(HOST_AREAS[level], ['management', 'users', 'audit'], async () => {
    const { HostDetailPage } = await import('../modules/management/pages/HostDetailPage');
    return () => <HostDetailPage level={level} />;
  });
// The customer list and detail share one chunk: opening one almost always leads to the other.
const customerPage = (name: 'CustomerListPage' | 'CustomerDetailPage') =>
  guarded(
    'customer_list',
    ['customers', 'segmentation'],
    async () => (await import('../modules/customers/pages/customerPages'))[name],
  );
// The segment list and detail share one chunk; the filter builder is its own.
const segmentPage = (name: 'SegmentListPage' | 'SegmentDetailPage') =>
  guarded(
    'segmentation',
    ['segmentation', 'customers'],
    async () => (await import('../modules/segmentation/pages/segmentationPages'))[name],
  );
const segmentEditor = guarded(
  'segmentation',
  ['segmentation', 'customers'],
  async () => (await import('../modules/segmentation/pages/SegmentEditorPage')).SegmentEditorPage,
);
// The campaign pages share one chunk; the statistics page loads its chart later still.
const campaignPage = (name: 'CampaignListPage' | 'CampaignEditorPage' | 'CampaignStatisticsPage') =>
  guarded(
    'campaign',
    ['campaign', 'experiments'],
    async () => (await import('../modules/campaigns/pages/campaignPages'))[name],
  );
// Each automations page is its own chunk; the editor (with the graph library) only loads on its path.
const AUTOMATIONS_PAGES = {
  ScenarioListPage: async () => (await import('../modules/automations/pages/ScenarioListPage')).ScenarioListPage,
  ScenarioSummaryPage: async () =>
    (await import('../modules/automations/pages/ScenarioSummaryPage')).ScenarioSummaryPage,
  PresetListPage: async () => (await import('../modules/automations/pages/PresetListPage')).PresetListPage,
  ScenarioEditorPage: async () => (await import('../modules/automations/pages/ScenarioEditorPage')).ScenarioEditorPage,
};
const automationsPage = (areaId: TAreaId, name: keyof typeof AUTOMATIONS_PAGES) =>
  guarded(areaId, ['automations', 'experiments'], AUTOMATIONS_PAGES[name]);

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      {
        lazy: async () => ({ Component: (await import('../modules/auth/components/PublicLayout')).PublicLayout }),
        HydrateFallback: FullPageSpinner,
        children: [
          {
            path: 'login',
            lazy: async () => ({ Component: (await import('../modules/auth/pages/LoginPage')).LoginPage }),
          },
          {
            path: 'forgot-password',
            lazy: async () => ({
              Component: (await import('../modules/auth/pages/ForgotPasswordPage')).ForgotPasswordPage,
            }),
          },
          {
            path: 'forgot-password/email-sent',
            lazy: async () => ({ Component: (await import('../modules/auth/pages/EmailSentPage')).EmailSentPage }),
          },
          {
            path: 'forgot-password/error',
            lazy: async () => ({ Component: (await import('../modules/auth/pages/ResetErrorPage')).ResetErrorPage }),
          },
          {
            path: 'reset-password',
            lazy: async () => ({
              Component: (await import('../modules/auth/pages/ResetPasswordPage')).ResetPasswordPage,
            }),
          },
          {
            path: 'unsubscribe',
            lazy: async () => {
              const [{ UnsubscribePage }] = await Promise.all([
                import('../modules/unsubscribe/pages/UnsubscribePage'),
                loadAreaTexts('unsubscribe'),
              ]);
              return { Component: UnsubscribePage };
            },
          },
          {
            path: 'yoyaku-verification',
            lazy: async () => {
              const [{ YoyakuVerificationPage }] = await Promise.all([
                import('../modules/booking-sync/pages/YoyakuVerificationPage'),
                loadAreaTexts('booking_sync'),
              ]);
              return { Component: YoyakuVerificationPage };
            },
          },
          {
            path: 'yoyaku-verification/redirect',
            lazy: async () => {
              const [{ YoyakuRedirectPage }] = await Promise.all([
                import('../modules/booking-sync/pages/YoyakuRedirectPage'),
                loadAreaTexts('booking_sync'),
              ]);
              return { Component: YoyakuRedirectPage };
            },
          },
        ],
      },
      {
        id: 'signed-in',
        loader: requireSession,
        HydrateFallback: FullPageSpinner,
        children: [
          {
            lazy: async () => {
              const [{ Shell }] = await Promise.all([import('../modules/shell/components/Shell'), loadConsoleTexts()]);
              return { Component: Shell };
            },
            children: [
              {
                index: true,
                lazy: async () => {
                  const [{ DashboardPage }] = await Promise.all([
                    import('../modules/dashboard/pages/DashboardPage'),
                    loadAreaTexts('dashboard'),
                  ]);
                  return { Component: DashboardPage };
                },
              },
              {
                path: 'management',
                children: [
                  { index: true, lazy: section(['brand_list', 'hotel_group_list', 'hotel_list']) },
                  { path: 'brand-list', lazy: hostList('brand') },
                  { path: 'brand-list/:id', lazy: hostDetail('brand') },
                  { path: 'hotel-group-list', lazy: hostList('hotel_group') },
                  { path: 'hotel-group-list/:id', lazy: hostDetail('hotel_group') },
                  { path: 'hotel-list', lazy: hostList('hotel') },
                  { path: 'hotel-list/:id', lazy: hostDetail('hotel') },
                  {
                    path: 'audit-log',
                    lazy: guarded(
                      'audit_log',
                      ['audit', 'management'],
                      async () => (await import('../modules/audit/pages/AuditLogPage')).AuditLogPage,
                    ),
                  },
                ],
              },
              {
                path: 'customer-list/import',
                lazy: guarded(
                  'customer_list',
                  ['customer_import', 'segmentation'],
                  async () => (await import('../modules/customer-import/pages/CustomerImportPage')).CustomerImportPage,
                ),
              },
              { path: 'customer-list', lazy: customerPage('CustomerListPage') },
              { path: 'customer-list/:id', lazy: customerPage('CustomerDetailPage') },
              { path: 'segmentation', lazy: segmentPage('SegmentListPage') },
              {
                path: 'suppression-list',
                lazy: guarded(
                  'suppression_list',
                  ['customers'],
                  async () => (await import('../modules/customers/pages/SuppressionListPage')).SuppressionListPage,
                ),
              },
              { path: 'segmentation/new', lazy: segmentEditor },
              { path: 'segmentation/:id', lazy: segmentPage('SegmentDetailPage') },
              { path: 'segmentation/:id/edit', lazy: segmentEditor },
              { path: 'campaign', lazy: campaignPage('CampaignListPage') },
              { path: 'campaign/new', lazy: campaignPage('CampaignEditorPage') },
              { path: 'campaign/:id', lazy: campaignPage('CampaignStatisticsPage') },
              { path: 'campaign/:id/edit', lazy: campaignPage('CampaignEditorPage') },
              {
                path: 'templates',
                lazy: guarded(
                  'templates',
                  // The report names each campaign's status as the campaign list does.
                  ['templates', 'campaign'],
                  async () => (await import('../modules/templates/pages/TemplateListPage')).TemplateListPage,
                ),
              },
              {
                path: 'templates/:id',
                lazy: guarded(
                  'templates',
                  ['templates'],
                  async () => (await import('../modules/templates/pages/TemplateEditorPage')).TemplateEditorPage,
                ),
              },
              {
                path: 'setup',
                lazy: guarded(
                  'setup',
                  ['sending'],
                  async () => (await import('../modules/sending/pages/SetupPage')).SetupPage,
                ),
              },
              {
                path: 'automations',
                children: [
                  { index: true, lazy: section(['scenario', 'preset']) },
                  { path: 'scenario', lazy: automationsPage('scenario', 'ScenarioListPage') },
                  { path: 'scenario/:id', lazy: automationsPage('scenario', 'ScenarioSummaryPage') },
                  { path: 'preset', lazy: automationsPage('preset', 'PresetListPage') },
                ],
              },
              {
                path: 'user-list',
                lazy: guarded(
                  'user_list',
                  ['users'],
                  async () => (await import('../modules/users/pages/UserListPage')).UserListPage,
                ),
              },
              {
                path: 'settings',
                lazy: guarded(
                  'settings',
                  ['settings', 'booking_sync', 'sending'],
                  async () => (await import('../modules/settings/pages/SettingsPage')).SettingsPage,
                ),
              },
            ],
          },
          {
            path: 'automations/editor',
            lazy: automationsPage('scenario_editor', 'ScenarioEditorPage'),
          },
        ],
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('../modules/areas/pages/NotFoundPage')).NotFoundPage }),
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
