import websocket from '@fastify/websocket';
import { PUSH_CHANNEL_PATH } from '@gridbot/shared';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app/deps';
import { subscribeUserEvents } from '../../bus/user-events';
import { PushHub } from './push-hub';

/**
 * GET /api/push: the push channel, a WebSocket per tab. A WebSocket rather than Server-Sent Events because
 * the page tells the server which prices it shows, and changes that as it navigates, on the same
 * connection; and because EventSource cannot send an Authorization header, so SSE would need the token
 * (or a ticket) in the URL, where proxies log it. Here the token is the first message.
 */
export async function pushRoutes(app: FastifyInstance, deps: AppDeps) {
  const bus = deps.userEvents;
  if (!bus) return;
  const hub = new PushHub({
    db: deps.db,
    sessions: deps.state.sessions,
    liveSessions: deps.state.liveSessions,
    feed: deps.feed,
    clock: deps.clock,
    log: (message, extra) => app.log.warn(extra ?? {}, message),
  });
  const unsubscribe = await subscribeUserEvents(bus, (events) => {
    hub
      .dispatch(events)
      .catch((error: unknown) => app.log.warn({ err: String(error) }, 'push dispatch failed'));
  });
  app.addHook('onClose', async () => {
    hub.closeAll();
    await unsubscribe();
  });
  // Small frames only: the client sends its token and the pairs on screen.
  await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  app.get(PUSH_CHANNEL_PATH, { websocket: true }, (socket) => hub.accept(socket));
}
