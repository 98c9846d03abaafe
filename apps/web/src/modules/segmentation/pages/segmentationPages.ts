export { SegmentListPage } from './SegmentListPage';
export { SegmentDetailPage } from './SegmentDetailPage';
