/** The demo's administrator, whom most journeys sign in as (all demo users share the password). */
export const ADMIN = {
  email: 'admin@rastro.demo',
  password: 'rastro-demo',
  name: 'Ana Administradora',
};
