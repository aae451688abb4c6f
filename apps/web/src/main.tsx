// First: configures zod before any chunk that holds it can load.
import './lib/zod-jitless';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { initTheme } from './lib/theme';
import './index.css';

initTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A transition: React renders the first screen in slices and yields to the browser between them, instead of
// one task that blocks input for as long as the whole shell and page take (docs/benchmarks.md, Web).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
