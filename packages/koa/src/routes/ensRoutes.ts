import { notImplemented } from './notImplemented.js'

/** ENS names: 501 until core's ENS issue lands (replace this file). `/ens/list` precedes `/ens/:name`. */
export const ensRoutes = [
  notImplemented('get', '/ens/list', 'The caller’s registered names', 'ENS names'),
  notImplemented('get', '/ens/check/:name', 'Availability and price of a .eth name', 'ENS names'),
  notImplemented('post', '/ens/register', 'Register a .eth name (commit/reveal)', 'ENS names'),
  notImplemented('get', '/ens/:name', 'The address a name resolves to', 'ENS names'),
]
