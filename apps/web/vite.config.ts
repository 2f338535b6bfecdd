// Build and dev-server configuration of the console. The sign secret and the body-encryption switch are
// fixed at build time, as the server's configuration dictates.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const backend = process.env.API_PROXY_TARGET ?? 'http://localhost:8080';

/**
 * The service worker (sw.js) written into the build as /sw.js with the build's id: a new build is a changed worker,
 * which browsers install in place of the old one (and which drops the old build's kept files).
 */
function serviceWorker(): Plugin {
  return {
    name: 'console-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const source = readFileSync(join(import.meta.dirname, 'sw.js'), 'utf8');
      const id = createHash('sha256')
        .update(source)
        .update(Object.keys(bundle).sort().join('\n'))
        .digest('hex')
        .slice(0, 16);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: source.replace("'__BUILD__'", `'${id}'`) });
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), serviceWorker()],
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
