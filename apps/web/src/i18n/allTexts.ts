// Every text of the console in one object per language: the core catalogue (with the signed-in
// console's error texts, console/) plus every area's.
// For tests and e2e specs only; the console itself downloads area texts lazily (i18n.ts).
// A new area's catalogue is added here as well as under areas/.
import en from './en.json';
import ja from './ja.json';
import consoleEn from './console/en.json';
import consoleJa from './console/ja.json';
import customerImportEn from './areas/customer_import/en.json';
import customerImportJa from './areas/customer_import/ja.json';
import auditEn from './areas/audit/en.json';
import auditJa from './areas/audit/ja.json';
import bookingSyncEn from './areas/booking_sync/en.json';
import bookingSyncJa from './areas/booking_sync/ja.json';
import customersEn from './areas/customers/en.json';
import customersJa from './areas/customers/ja.json';
import managementEn from './areas/management/en.json';
import managementJa from './areas/management/ja.json';
import sendingEn from './areas/sending/en.json';
import sendingJa from './areas/sending/ja.json';
import segmentationEn from './areas/segmentation/en.json';
import segmentationJa from './areas/segmentation/ja.json';
import settingsEn from './areas/settings/en.json';
import settingsJa from './areas/settings/ja.json';
import usersEn from './areas/users/en.json';
import usersJa from './areas/users/ja.json';
import templatesEn from './areas/templates/en.json';
import templatesJa from './areas/templates/ja.json';
import campaignEn from './areas/campaign/en.json';
import campaignJa from './areas/campaign/ja.json';
import dashboardEn from './areas/dashboard/en.json';
import dashboardJa from './areas/dashboard/ja.json';
import unsubscribeEn from './areas/unsubscribe/en.json';
import unsubscribeJa from './areas/unsubscribe/ja.json';
import automationsEn from './areas/automations/en.json';
import automationsJa from './areas/automations/ja.json';
import experimentsEn from './areas/experiments/en.json';
import experimentsJa from './areas/experiments/ja.json';

export const AREA_TEXTS = {
  customer_import: { ja: customerImportJa, en: customerImportEn },
  audit: { ja: auditJa, en: auditEn },
  booking_sync: { ja: bookingSyncJa, en: bookingSyncEn },
  customers: { ja: customersJa, en: customersEn },
  management: { ja: managementJa, en: managementEn },
  segmentation: { ja: segmentationJa, en: segmentationEn },
  settings: { ja: settingsJa, en: settingsEn },
  sending: { ja: sendingJa, en: sendingEn },
  users: { ja: usersJa, en: usersEn },
  templates: { ja: templatesJa, en: templatesEn },
  campaign: { ja: campaignJa, en: campaignEn },
  dashboard: { ja: dashboardJa, en: dashboardEn },
  unsubscribe: { ja: unsubscribeJa, en: unsubscribeEn },
  automations: { ja: automationsJa, en: automationsEn },
  experiments: { ja: experimentsJa, en: experimentsEn },
} as const;

export const ALL_TEXTS = {
  ja: {
    ...ja,
    errors: { ...ja.errors, ...consoleJa.errors },
    ...auditJa,
    ...bookingSyncJa,
    ...customersJa,
    ...customerImportJa,
    ...managementJa,
    ...segmentationJa,
    ...settingsJa,
    ...usersJa,
    ...sendingJa,
    ...templatesJa,
    ...campaignJa,
    ...dashboardJa,
    ...unsubscribeJa,
    ...automationsJa,
    ...experimentsJa,
  },
  en: {
    ...en,
    errors: { ...en.errors, ...consoleEn.errors },
    ...auditEn,
    ...bookingSyncEn,
    ...customersEn,
    ...customerImportEn,
    ...managementEn,
    ...segmentationEn,
    ...settingsEn,
    ...usersEn,
    ...sendingEn,
    ...templatesEn,
    ...campaignEn,
    ...dashboardEn,
    ...unsubscribeEn,
    ...automationsEn,
    ...experimentsEn,
  },
} as const;
