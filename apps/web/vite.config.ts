import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The server serves dist/ on the same origin; in `vite dev` the API is proxied to it.
export default defineConfig(({ command, mode }) => {
  // A production build must ship React's production code and JSX even when the shell that runs it
  // exported NODE_ENV=development or test (npm start inherits it): otherwise +60 kB gzip and dev JSX.
  // Vite and the React plugin read NODE_ENV after this file is loaded.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return {
    plugins: [react()],
    // tiptap's packages arrive in three copies of @tiptap/core (the lockfile holds 3.32 and 3.34):
    // one copy keeps the editor's chunk small and its extensions on one schema class.
    resolve: { dedupe: ['@tiptap/core', '@tiptap/pm'] },
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
      // Two lazy chunks are 450 kB minified, and each loads only with the pages that need it: the flex
      // builder (the template editor; 132 kB gzip of its 150 kB budget, DESIGN section 9) and the chart
      // library, recharts (120 kB gzip: the dashboard's chart after its figures, campaign statistics).
      // Splitting them would not shorten any page's wait. 520 kB is the editors' 150 kB gzip budget at
      // their 3.4:1 ratio, so a chunk growing past it still warns; `npm run bench -- bundle` holds the
      // first pages (/login, the shell with the dashboard) to 200 kB gzip.
      chunkSizeWarningLimit: 520,
      // The entry lists, for each lazy page, the chunks to preload with it: 197 file names, which
      // with their names spelled out were 2.9 kB of the first pages' gzip (1.5 kB as hashes alone).
      // The first pages had grown to 200.8 kB; bench/bundle.mjs names each chunk by its source.
      rolldownOptions: { output: { chunkFileNames: 'assets/[hash].js' } },
      // Current browsers preload modules themselves (Chrome 66, Firefox 115, Safari 17 onwards); an
      // older one would only fetch a page's chunks as it imports them, not fail.
      modulePreload: { polyfill: false },
    },
  };
});
