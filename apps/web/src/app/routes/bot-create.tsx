import { CreateStrategy } from '../../features/strategies/components/create-strategy';

/** /botcreate: Create Grid Bot Strategy, titled Multigrid Strategy (spec 01 §2). */
export default function BotCreateRoute() {
  return <CreateStrategy kind="multigrid" />;
}
