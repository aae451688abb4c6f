import { TopBots } from '../../features/copy-bots/components/top-bots';

/** docs/spec/01-core-screens.md Copy BOTs (/livebots). */
export default function LivebotsRoute() {
  return <TopBots />;
}
