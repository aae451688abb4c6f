import { CONTACT_TEXT_MAX, contactInputSchema, contactMessages } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input, Textarea } from '../../../components/ui/input';
import { toast } from '../../../lib/toast';
import { useSendContact } from '../api/send-contact';

interface ContactFormProps {
  /**
   * A signed-in member asking for help: name and e-mail prefilled, and after sending the form stays on the
   * page, emptied (the thank-you page speaks to visitors asking to sign up).
   */
  member?: { name: string; email: string };
}

/** docs/spec/01-core-screens.md Contact us: success toast, then the thank-you page (visitors). */
export function ContactForm({ member }: ContactFormProps = {}) {
  const navigate = useNavigate();
  const send = useSendContact();
  const defaults = { name: member?.name ?? '', contactNo: '', email: member?.email ?? '', text: '' };
  const form = useForm({
    resolver: zodResolver(contactInputSchema),
    defaultValues: defaults,
    values: member ? defaults : undefined,
    resetOptions: { keepDirtyValues: true },
  });
  const { errors } = form.formState;
  const textLength = form.watch('text')?.length ?? 0;

  const onSubmit = form.handleSubmit((input) =>
    send.mutateAsync(input).then(
      () => {
        toast.success(contactMessages.sent);
        if (member) form.reset({ ...defaults, text: '' });
        else navigate('/thankyou');
      },
      () => {
        toast.error(contactMessages.failed);
      },
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <Input
        label="Name"
        autoComplete="name"
        maxLength={100}
        placeholder="Your name"
        error={errors.name?.message}
        {...form.register('name')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Input
          label="Contact No"
          type="tel"
          autoComplete="tel"
          maxLength={20}
          placeholder="+4915112345678"
          error={errors.contactNo?.message}
          {...form.register('contactNo')}
        />
        <Input
          label="Email"
          type="email"
          autoComplete="email"
          maxLength={42}
          placeholder="you@example.com"
          error={errors.email?.message}
          {...form.register('email')}
        />
      </div>
      <Textarea
        label="Message"
        placeholder="How can we help?"
        maxLength={CONTACT_TEXT_MAX}
        error={errors.text?.message}
        hint={`${textLength}/${CONTACT_TEXT_MAX}`}
        {...form.register('text')}
      />
      <Button type="submit" size="lg" fullWidth loading={send.isPending}>
        {send.isPending ? 'Sending...' : 'Send Message'}
      </Button>
      {member ? null : (
        <p className="text-center text-sm text-muted">
          <Link to="/" className="font-semibold text-primary hover:underline">
            Already have an account? Sign In
          </Link>
        </p>
      )}
    </form>
  );
}
