export { CustomerListPage } from './CustomerListPage';
export { CustomerDetailPage } from './CustomerDetailPage';
