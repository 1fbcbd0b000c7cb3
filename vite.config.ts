import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const API = ['/registros', '/tech-integracao', '/registro/', '/health'];

export default defineConfig({
  build: {
    outDir: 'dist',
    sourcemap: true,
    target: 'es2022',
    rollupOptions: {
      onwarn(warning, warn) {
        // TanStack Query marks its modules "use client" for React Server Components; a
        // client-only bundle has nothing to preserve.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: Object.fromEntries(API.map((path) => [path, 'http://localhost:3000'])),
  },
  plugins: [
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'firebase-messaging-sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      includeManifestIcons: false,
      manifestFilename: 'manifest.webmanifest',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        globIgnores: ['**/*.map'],
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
      manifest: {
        id: '/',
        name: 'Rastro — Rastreamento e Gestão de Frotas',
        short_name: 'Rastro',
        description:
          'Acompanhe veículos e ativos em tempo real, receba alertas e gere relatórios da sua frota.',
        lang: 'pt-BR',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#0b5cad',
        background_color: '#ffffff',
        categories: ['business', 'navigation', 'productivity'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      devOptions: { enabled: false },
    }),
  ],
});
