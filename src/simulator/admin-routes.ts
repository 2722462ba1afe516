// Where the simulator's admin API answers, for the API itself (admin.ts) and its client (admin-client.ts).

/** The admin API lives beside the interface, never under its API root. */
export const ADMIN_PREFIX = '/_sim/';
/** The header that carries the admin key. */
export const ADMIN_KEY_HEADER = 'x-sim-admin-key';
