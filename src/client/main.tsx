import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Toaster } from '@/components/ui/toaster';
import { ThemeProvider } from '@/lib/theme';
import { Router } from './app/router';
import './index.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ThemeProvider>
      <Router />
      <Toaster />
    </ThemeProvider>
  </StrictMode>,
);
