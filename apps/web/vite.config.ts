// Build and dev-server configuration of the console. The sign secret and the body-encryption switch are
// fixed at build time, as the server's configuration dictates.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const backend = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  define: {
    __SIGN_SECRET__: JSON.stringify(process.env.API_SIGN_SECRET ?? ''),
    __API_ENCRYPTION__: JSON.stringify(process.env.API_ENCRYPTION === 'aes'),
    __BUILD_DATE__: JSON.stringify(new Date().toISOString().slice(0, 10)),
  },
  server: {
    proxy: {
      '/yewu': { target: backend, changeOrigin: true },
      '/uploads': { target: backend, changeOrigin: true },
      '/ws': { target: backend, ws: true, changeOrigin: true },
    },
  },
  build: {
    // WEB_OUT_DIR lets several builds (parallel browser-test runs) write to separate folders.
    outDir: process.env.WEB_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      treeshake: {
        // The shared contract has no side effects at import time; letting the bundler drop unused schemas
        // keeps zod out of pages that only need a rule or a constant.
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]protocol[\\/]/.test(id),
      },
    },
  },
});
