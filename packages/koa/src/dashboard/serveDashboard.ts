import { existsSync } from 'node:fs'
import { readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, extname, join, resolve, sep } from 'node:path'
import type Koa from 'koa'
import type { AppState } from '../http/types.js'

/** `true` serves the built `@agentwallet/dashboard`; `{ dir }` serves another build of it. */
export type DashboardOption = boolean | { dir: string } | undefined

/** Strict: only our own files, no inline code, no framing, the API and /ws on this origin only. */
export const dashboardCsp =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; " +
  "font-src 'self'; manifest-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

const prefix = '/dashboard'
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
}

/**
 * Where the built dashboard is, if `@agentwallet/dashboard` is installed and built (its `dist/index.html`).
 * @example const dir = findDashboardDir(); if (dir) createApp({ agentWallet, dashboard: { dir } })
 */
export function findDashboardDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve('@agentwallet/dashboard/package.json')
    const dir = join(dirname(manifest), 'dist')
    return existsSync(join(dir, 'index.html')) ? dir : undefined
  } catch {
    return undefined
  }
}

/**
 * Serves the dashboard's static files under /dashboard with the CSP above; other paths pass through.
 * Unknown files under /dashboard fall through to the API's 404 envelope.
 * @example koa.use(serveDashboard({ dir: '/path/to/dist' }))
 */
export function serveDashboard(option: DashboardOption): Koa.Middleware<AppState> {
  const dir = option === true ? findDashboardDir() : option ? resolve(option.dir) : undefined
  if (option && !dir)
    throw new Error('dashboard: the built @agentwallet/dashboard (dist/index.html) was not found')
  return async (ctx, next) => {
    if (!dir || (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`))) return next()
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    if (ctx.path === prefix) {
      ctx.redirect(`${prefix}/`)
      return
    }
    let relative: string
    try {
      relative = decodeURIComponent(ctx.path.slice(prefix.length + 1)) || 'index.html'
    } catch {
      return next()
    }
    const file = resolve(dir, relative)
    if (!file.startsWith(dir + sep) || relative.includes('\0')) return next()
    const info = await stat(file).catch(() => undefined)
    if (!info?.isFile()) return next()
    ctx.set('Content-Security-Policy', dashboardCsp)
    ctx.set('X-Content-Type-Options', 'nosniff')
    ctx.set('Referrer-Policy', 'no-referrer')
    ctx.set('X-Frame-Options', 'DENY')
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin')
    // Hashed assets never change; index.html must be revalidated to pick up a new build.
    ctx.set(
      'Cache-Control',
      relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    )
    ctx.type = types[extname(file)] ?? 'application/octet-stream'
    ctx.body = await readFile(file)
  }
}
