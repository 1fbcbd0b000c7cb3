import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createRouter } from './app/router';
import { bootLocations } from './db/locations-boot';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('#root missing from index.html');

// The map's last locations start loading off this thread now, while the page's code loads.
bootLocations();

createRoot(container).render(
  <StrictMode>
    <RouterProvider router={createRouter()} />
  </StrictMode>,
);
