import { PageHeader } from '../../components/ui/page-header';

/**
 * docs/spec: the Start New SIP page has a title and no content. One line says so, so the sidebar's entry
 * does not look broken.
 */
export default function SipRoute() {
  return <PageHeader title="Start New SIP" description="SIP is coming soon." />;
}
