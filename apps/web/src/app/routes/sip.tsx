import { PageHeader } from '../../components/ui/page-header';

/** docs/spec: the Start New SIP page has a title and no content. */
export default function SipRoute() {
  return <PageHeader title="Start New SIP" />;
}
