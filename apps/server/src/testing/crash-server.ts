import { type FaultPoint, onFaultPoint } from '../worker/fault-points';

// The server of the final-sell crash test: main.ts, killed by SIGKILL the moment the bot CRASH_BOT reaches
// CRASH_AT (a fault point) for a sell. A kill from inside lands exactly there, which one from outside cannot.
const at = process.env.CRASH_AT as FaultPoint | undefined;
const botId = process.env.CRASH_BOT;
if (at && botId) {
  onFaultPoint((point, detail) => {
    if (point === at && detail.botId === botId && detail.side === 'sell')
      process.kill(process.pid, 'SIGKILL');
  });
}
await import('../main');
