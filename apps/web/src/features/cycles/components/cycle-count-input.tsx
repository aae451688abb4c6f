import { NumberInput, type NumberInputProps } from '../../../components/ui/number-input';

/** How many times a cycle buys and sells: a whole number from 1 to MAX_CYCLE_COUNT (the schema says so). */
export function CycleCountInput(props: NumberInputProps) {
  return <NumberInput whole {...props} />;
}
