import * as React from 'react';

export type Theme = 'light' | 'dark';
const STORAGE_KEY = 'theme';

interface ThemeContextValue {
  theme: Theme;
  toggleTheme: () => void;
}

const ThemeContext = React.createContext<ThemeContextValue | null>(null);

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The theme the user chose, or null while they have not. */
function chosenTheme(): Theme | null {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved === 'dark' || saved === 'light' ? saved : null;
  } catch {
    return null;
  }
}

const systemTheme = (): Theme =>
  typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches
    ? 'dark'
    : 'light';

/**
 * The system's setting (`prefers-color-scheme`), followed as it changes, until the user chooses
 * with the toggle (issue 43, item 23); the choice is saved in local storage under `theme`. A class
 * on the document root.
 */
export function ThemeProvider({ children }: { children: React.ReactNode }) {
  const [chosen, setChosen] = React.useState<Theme | null>(chosenTheme);
  const [system, setSystem] = React.useState<Theme>(systemTheme);
  const theme = chosen ?? system;

  React.useEffect(() => {
    if (chosen !== null || typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = () => setSystem(query.matches ? 'dark' : 'light');
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [chosen]);

  React.useEffect(() => {
    const root = document.documentElement;
    root.classList.remove('light', 'dark');
    root.classList.add(theme);
  }, [theme]);

  const value = React.useMemo(
    () => ({
      theme,
      toggleTheme: () => {
        const next = theme === 'light' ? 'dark' : 'light';
        try {
          localStorage.setItem(STORAGE_KEY, next);
        } catch {}
        setChosen(next);
      },
    }),
    [theme],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme() {
  const context = React.useContext(ThemeContext);
  if (!context) throw new Error('useTheme must be used within a ThemeProvider.');
  return context;
}
