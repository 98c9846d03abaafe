// The campaign pages share one chunk (one entry in the router's download, which the first page carries).
export { CampaignEditorPage } from './CampaignEditorPage';
export { CampaignListPage } from './CampaignListPage';
export { CampaignStatisticsPage } from './CampaignStatisticsPage';
