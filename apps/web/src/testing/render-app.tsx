import { createBrowserRouter } from 'react-router';
import { appRoutes } from '../app/router';
import { mountRouter, prepareRender, type RenderOptions } from './render-setup';

export { currentUrl } from './render-setup';

/**
 * The whole app at `path` with the real route table: the shell, the guard and every screen. For tests about
 * the app as a whole; a screen's own behaviour is tested with renderFeature.
 */
export function renderApp(path: string, options: RenderOptions = {}) {
  const queryClient = prepareRender(path, options);
  return mountRouter(createBrowserRouter(appRoutes(queryClient)), queryClient, options);
}
