import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server serves dist/ on the same origin; in `vite dev` the API is proxied to it.
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/v1': 'http://localhost:3000',
      '/t': 'http://localhost:3000',
    },
  },
  build: {
    // bench/bundle.mjs reads the manifest to know which chunks /login loads.
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 400,
  },
});
