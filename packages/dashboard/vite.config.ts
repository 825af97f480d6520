import { defineConfig } from 'vite'

// Served by the Koa server under /dashboard with a strict CSP: no inline scripts or styles, no
// CDN, so everything the page needs is a hashed file under dist/assets.
export default defineConfig({
  base: '/dashboard/',
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
