/** The documents pages in one chunk: each of them adds to what the app's start lists. */
export { DocumentsPage } from './DocumentsPage';
export { documentScreen } from './documents';
