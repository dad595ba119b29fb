import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster } from '@/components/ui/toaster';
import { ThemeProvider } from '@/lib/theme';
import { Router } from './app/router';
import './index.css';

// A transition lets React render the first screen in slices, so a slow phone stays responsive
// (no long task blocks input while the page builds).
const root = createRoot(document.getElementById('root')!);
startTransition(() => {
  root.render(
    <StrictMode>
      <ThemeProvider>
        <Router />
        <Toaster />
      </ThemeProvider>
    </StrictMode>,
  );
});
