import { fileURLToPath } from 'node:url'

/** Where the built dashboard (index.html + hashed assets) lives; the server serves it at /dashboard. */
export const dashboardDir = fileURLToPath(new URL('./dist', import.meta.url))
