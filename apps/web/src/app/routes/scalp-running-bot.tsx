import { useParams } from 'react-router';
import { RunningBotScreen } from '../../features/bots/components/running-bot-screen';
import { botCandles } from '../bot-candles';

/** docs/spec/02-bots-wallet-account.md Running scalping bot (/scalp-running-bot/{id}). */
export default function ScalpRunningBotRoute() {
  const { id = '' } = useParams();
  return <RunningBotScreen key={id} kind="scalping" id={id} renderCandles={botCandles} />;
}
