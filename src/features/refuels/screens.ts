/** The refuels and expenses pages in one chunk: each of them adds to what the app's start lists. */
export { expenseScreen } from './expenses';
export { RefuelsPage } from './RefuelsPage';
export { refuelScreen } from './refuels';
