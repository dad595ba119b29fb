import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiPort = Number(process.env.API_PORT ?? 5001);

export default defineConfig({
  root: 'src/client',
  publicDir: path.resolve(import.meta.dirname, 'public'),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src/client'),
      '@shared': path.resolve(import.meta.dirname, 'src/shared'),
    },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    // scripts/finish-client-build.mjs reads which chunks the landing page loads first.
    manifest: true,
  },
  server: {
    port: Number(process.env.PORT ?? 5000),
    // The browser's Host header is passed on unchanged (the string shorthand would rewrite it
    // to the API's port, and the server's Origin check would refuse every write).
    proxy: Object.fromEntries(
      ['/api', '/objects'].map((prefix) => [
        prefix,
        { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
      ]),
    ),
  },
});
