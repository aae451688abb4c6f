/** The contact form's path, written once for the server's route and the web's call (docs/architecture.md §4). */
export const contactApiPaths = {
  send: '/api/contact',
} as const;
