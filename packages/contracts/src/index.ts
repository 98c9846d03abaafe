export * from './tenancy.ts';
export * from './validation.ts';
export * from './errors.ts';
export * from './entitlements.ts';
export * from './features.ts';
export * from './http.ts';
export * as authApi from './auth.ts';
export * from './auth.ts';
export * as devApi from './dev.ts';
export * from './dev.ts';
export * as managementApi from './management.ts';
export {
  ZHost,
  ZHostDetail,
  ZHostInput,
  ZHostListQuery,
  LOGO_MAX_BYTES,
  HOST_SORTS,
  type THost,
  type THostDetail,
} from './management.ts';
export * as usersApi from './users.ts';
export { ZUser, type TUser } from './users.ts';
export * as settingsApi from './settings.ts';
export * as customersApi from './customers.ts';
export {
  ZCustomer,
  normalizePhone,
  ageOn,
  GENDERS,
  EMAIL_STATUSES,
  CUSTOMER_SORTS,
  type TCustomer,
} from './customers.ts';
export * as bookingApi from './booking.ts';
export { ZBookingStatus, ZSyncRun, DAILY_SYNC_TIME, type TBookingStatus, type TSyncRun } from './booking.ts';
export * as locationsApi from './locations.ts';
export { ZCountry, ZPrefecture, ZCity, type TCountry, type TPrefecture, type TCity } from './locations.ts';
export * as customerImportsApi from './customer-imports.ts';
export {
  IMPORT_FIELDS,
  IMPORT_MAX_BYTES,
  EMAIL_RECEPTIONS,
  type TCustomerImport,
  type TImportField,
  type TEmailReception,
} from './customer-imports.ts';
export * as sendingApi from './sending.ts';
export {
  normalizeDomain,
  senderDomainOf,
  isSenderEmail,
  DOMAIN_VERIFY_COUNTDOWN_SECONDS,
  SENDING_DEFAULTS,
  SETTINGS_FIELDS,
  FREQUENCY_CAP_BOUNDS,
  QUIET_HOURS_TIME,
  type TSendingDomain,
  type TDnsRecord,
  type TCampaignEmailSettings,
  type TCampaignEmailValues,
  type TSetupOverview,
  type TDomainState,
  type TCheckResult,
  type TRecordKind,
  type TRecordCheck,
  type TSettingsField,
} from './sending.ts';
export * as templatesApi from './templates.ts';
export {
  ZBlockDocument,
  ZBlock,
  ZSection,
  ZRichText,
  ZTemplateContent,
  PERSONAL_TAGS,
  PERSONAL_TAG_KEYS,
  PALETTE_ITEMS,
  DIVIDER_THICKNESSES,
  TEMPLATE_LANGUAGES,
  TEMPLATE_IMAGE_MAX_BYTES,
  TEMPLATE_HTML_WARN_BYTES,
  TEST_SEND_MAX_RECIPIENTS,
  PREVIEW_WIDTHS,
  DIVIDER_WIDTH_PX,
  EMAIL_WIDTH,
  STORED_IMAGE_PATTERN,
  emptyDocument,
  isSafeHref,
  type TBlockDocument,
  type TBlock,
  type TSection,
  type TRichText,
  type TTemplate,
  type TTemplateSummary,
  type TTemplateContent,
  type TTemplateLanguage,
  type TPersonalTagKey,
  type TPreview,
  type TPreviewWarning,
  type TList,
  type TParagraph,
  type THeading,
  type TRichTextNode,
  type TTextInline,
  type TTextMark,
  type TTemplateContents,
} from './templates.ts';
export * as segmentsApi from './segments.ts';
export {
  ZFilter,
  checkFilter,
  FILTER_FAULTS,
  FILTER_FIELDS,
  OPERATORS_BY_TYPE,
  FILTER_VERSION,
  SEGMENT_TYPES,
  MEMBER_FILE_MAX_BYTES,
  MEMBER_FILE_MAX_ROWS,
  MEMBER_FILE_REPORT_ROWS,
  type TFilter,
  type TFilterGroup,
  type TFilterCondition,
  type TFilterFault,
  type TSegment,
  type TFilterField,
  type TOperator,
  type TExplainBooking,
  type TExplainGroup,
  type TExplanation,
  type TFilterCount,
  type TMemberFileReport,
} from './segments.ts';
export * as campaignsApi from './campaigns.ts';
export {
  CAMPAIGN_STATUSES,
  CAMPAIGN_LIST_STATUSES,
  listStatusOf,
  DELIVERY_STATUSES,
  SKIP_REASONS,
  EDITABLE_STATUSES,
  CAMPAIGN_TEST_SEND_MAX,
  CAMPAIGN_SCOPES,
  type TCampaign,
  type TCampaignHold,
  type TCampaignScope,
  type TCampaignStatus,
  type TCampaignListStatus,
  type TDeliveryStatus,
  type TSkipReason,
  type TSchedule,
  type TAudiencePreview,
  type TQuietHoursCheck,
  type TCampaignStatistics,
  type TDelivery,
  type TCampaignListQuery,
  type TCampaignValues,
  type TCampaignUpdate,
} from './campaigns.ts';
export * as trackingApi from './tracking.ts';
export * as deliverabilityApi from './deliverability.ts';
export { RELAY_PROVIDERS, type TRelayProvider, type TRelayWebhook, type TRelayWebhookInput } from './deliverability.ts';
export {
  TRACKING_EVENT_KINDS,
  UNSUBSCRIBE_SOURCES,
  GUEST_CONSENT_SOURCES,
  STAT_COUNTERS,
  ratesOf,
  type TStatCounters,
  type TStatRates,
  type TCampaignReport,
  type TRecipientFeedbackKind,
  RECIPIENT_SKIP_REASONS,
  type TRecipientSkipReason,
  type TUnsubscribePage,
  type TUnsubscribeSource,
  type TGuestConsentSource,
} from './tracking.ts';
export {
  SUPPRESSION_REASONS,
  PROTECTION_BOUNDS,
  PROTECTION_DEFAULTS,
  PROTECTION_FIELDS,
  protectionWarning,
  type TProtection,
  type TProtectionWarning,
  type TSuppression,
  type TSuppressionReason,
  type TSuppressionListQuery,
} from './deliverability.ts';
export * as dashboardApi from './dashboard.ts';
export {
  DASHBOARD_WINDOW_DAYS,
  type TDashboardWindow,
  type TFigure,
  type TLevelInfo,
  type TCustomerStatistics,
  type TCampaignPerformance,
  type TDailyPerformance,
  type THotelPerformance,
  type TRunningScenarios,
  type TRunningScenario,
} from './dashboard.ts';
export * as scenariosApi from './scenarios.ts';
export {
  SCENARIO_GRAPH_VERSION,
  SCENARIO_STATUSES,
  SCENARIO_ACTIONS,
  ACTION_FROM,
  STOP_SENTENCE,
  STOP_SENTENCES,
  isStopSentence,
  TRIGGER_KINDS,
  STAY_TRIGGERS,
  DELAY_KINDS,
  DELAY_UNITS,
  BRANCH_CONDITIONS,
  EDGE_HANDLES,
  GRAPH_FAULTS,
  NODE_STATES,
  RUN_PERIOD_KINDS,
  REPEAT_UNITS,
  PRESET_COLOURS,
  BUILT_IN_PRESETS,
  checkScenarioGraph,
  emptyGraph,
  type TScenario,
  type TScenarioGraph,
  type TScenarioNode,
  type TScenarioEdge,
  type TScenarioStatus,
  type TScenarioAction,
  type TTrigger,
  type TDelay,
  type TGraphFault,
  type TNodeStatus,
  type TPreset,
  type TJourney,
  type TEmailDetail,
  type TExecutionLog,
  type TRunPeriod,
  type TScenarioRun,
} from './scenarios.ts';
export * as domainDeliverabilityApi from './domain-deliverability.ts';
export {
  DELIVERABILITY_LIMITS,
  DELIVERABILITY_WINDOW_DAYS,
  RECENT_POLICY_BLOCKS,
  rateLevel,
  type TDomainDeliverability,
  type TDomainWindow,
  type TPolicyBlock,
  type TRateLevel,
} from './domain-deliverability.ts';
export * as experimentsApi from './experiments.ts';
export {
  EXPERIMENT_METRICS,
  VARIANT_KEYS,
  ALTERNATIVE_KEYS,
  EXPERIMENT_PHASES,
  WINNER_HOWS,
  DELIVERY_ARMS,
  EXPERIMENT_TEST_PERCENT,
  EXPERIMENT_WAIT_HOURS,
  HOLDOUT_PERCENT,
  EXPERIMENT_MAX_ALTERNATIVES,
  VARIANT_SENDER_NAME_MAX,
  HOLDOUT_WINDOWS,
  type TExperimentMetric,
  type TVariantKey,
  type TExperimentPhase,
  type TWinnerHow,
  type TDeliveryArm,
  type TVariantInput,
  type TExperimentInput,
  type TExperimentValues,
  type TCampaignVariant,
  type TExperimentWinner,
  type TCampaignExperiment,
  type TInterval,
  type TRate,
  type TVariantReport,
  type TExperimentDecision,
  type THoldoutGroup,
  type THoldoutWindow,
  type THoldoutReport,
  type TExperimentReport,
  type TPickWinnerInput,
} from './experiments.ts';
