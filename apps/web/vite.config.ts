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
    },
  };
});
