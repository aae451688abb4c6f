import { ContactForm } from '../../features/contact/components/contact-form';
import { AuthPanel } from '../layouts/auth-panel';

export default function ContactRoute() {
  return (
    <AuthPanel
      title="Contact us"
      description="Questions about GridBot? Send us a message and we will get back to you."
    >
      <ContactForm />
    </AuthPanel>
  );
}
