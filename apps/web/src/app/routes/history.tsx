import { BotHistory } from '../../features/history/components/bot-history';

export default function HistoryRoute() {
  return <BotHistory />;
}
