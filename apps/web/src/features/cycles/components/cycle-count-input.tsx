import { MAX_CYCLE_COUNT } from '@gridbot/shared';
import { Input, type InputProps } from '../../../components/ui/input';

/** How many times a cycle buys and sells: a whole number from 1 to MAX_CYCLE_COUNT. */
export function CycleCountInput(props: InputProps) {
  return <Input type="number" inputMode="numeric" min={1} max={MAX_CYCLE_COUNT} step={1} {...props} />;
}
