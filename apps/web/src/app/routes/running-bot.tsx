import { useParams } from 'react-router';
import { RunningBotScreen } from '../../features/bots/components/running-bot-screen';

/** Spec 02 Running multigrid bot (/running-bot/{id}). */
export default function RunningBotRoute() {
  const { id = '' } = useParams();
  return <RunningBotScreen key={id} kind="multigrid" id={id} />;
}
