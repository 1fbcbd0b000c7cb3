/** The maintenance pages in one chunk: each of them adds to what the app's start lists. */
export { DueListPage } from './DueListPage';
export { planScreen } from './plans';
export { serviceRecordScreen } from './service-records';
