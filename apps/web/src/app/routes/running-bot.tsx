import { useParams } from 'react-router';
import { RunningBotScreen } from '../../features/bots/components/running-bot-screen';
import { botCandles } from '../bot-candles';

/** docs/spec/02-bots-wallet-account.md Running multigrid bot (/running-bot/{id}). */
export default function RunningBotRoute() {
  const { id = '' } = useParams();
  return <RunningBotScreen key={id} kind="multigrid" id={id} renderCandles={botCandles} />;
}
