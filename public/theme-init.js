// Runs before the entry script, as an external file (the CSP allows no inline script).
// Applies the theme before the first paint: the one chosen, else the system's (issue 43, item 23).
try {
  var chosen = localStorage.getItem('theme');
  var dark =
    chosen === 'dark' ||
    (chosen !== 'light' && window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches);
  if (dark) document.documentElement.classList.add('dark');
} catch (_) {}

// Starts what the first screen needs beside the entry script instead of after it: for a visitor
// the `signed-in` hint says is signed in, the signed-in shell's code and the current user; for
// anyone else, the landing page's code. `npm run build` fills PRELOAD from Vite's manifest
// (scripts/finish-client-build.mjs); in development it stays empty.
var PRELOAD = { signedIn: [], landing: [] };
try {
  var signedIn = localStorage.getItem('signed-in') === '1';
  if (signedIn) {
    // Taken by src/client/lib/auth.ts as its first GET /api/auth/session. Asked first: the
    // browser queues the scripts below behind it, not it behind them.
    window.__currentUser = fetch('/api/auth/session', { credentials: 'include', cache: 'no-store' });
  }
  (signedIn ? PRELOAD.signedIn : PRELOAD.landing).forEach(function (href) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.appendChild(link);
  });
} catch (_) {}
