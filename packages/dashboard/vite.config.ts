import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

// Served by the Koa server under /dashboard with a strict CSP: no inline scripts or styles, no
// CDN, so everything the page needs is a hashed file under dist/assets.
export default defineConfig({
  base: '/dashboard/',
  // The API client and the operation contract it derives from, bundled from source (no build of
  // either package needed first): the dashboard calls the server only through the client.
  resolve: {
    alias: {
      '@agentwallet/client': source('../client/src/index.ts'),
      '@agentwallet/core/contract': source('../core/src/contract/index.ts'),
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Assets are never inlined as data: URLs or inline <style>; the CSP allows only 'self'.
    assetsInlineLimit: 0,
    sourcemap: false,
    target: 'es2022',
  },
})
