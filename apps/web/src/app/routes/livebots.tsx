import { TopBots } from '../../features/copy-bots/components/top-bots';

/** Spec 01 Copy BOTs (/livebots). */
export default function LivebotsRoute() {
  return <TopBots />;
}
