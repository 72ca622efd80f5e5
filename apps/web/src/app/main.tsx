import './zod-without-eval';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { loadCookies } from './cookies/cookies';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The remembered choices are read before the first render, which shows them.
void loadCookies().finally(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
