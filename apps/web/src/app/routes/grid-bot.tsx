import { useParams } from 'react-router';
import { RunningGridScreen } from '../../features/grid/components/running-grid-screen';
import { gridChart } from '../grid-chart';

/** A running range grid (/grid-bot/{id}). */
export default function GridBotRoute() {
  const { id = '' } = useParams();
  return <RunningGridScreen key={id} id={id} renderChart={gridChart} />;
}
