import { LOGIN_INPUT_MAX } from '@gridbot/shared';
import { Link } from 'react-router';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { Input, type InputProps } from '../../../components/ui/input';

type FieldProps = Omit<InputProps, 'label' | 'type' | 'autoComplete' | 'maxLength'>;

/** The account e-mail, as sign-up and password recovery ask for it. */
export function EmailAddressInput(props: FieldProps) {
  return (
    <Input
      label="Email Address"
      type="email"
      autoComplete="email"
      maxLength={LOGIN_INPUT_MAX}
      placeholder="you@example.com"
      {...props}
    />
  );
}

/** A password being chosen: hidden with a show/hide toggle, and offered to the password manager as new. */
export function NewPasswordInput(props: Omit<FieldProps, 'revealable'> & { label: string }) {
  return (
    <Input type="password" revealable autoComplete="new-password" maxLength={LOGIN_INPUT_MAX} {...props} />
  );
}

/** The way back from the password recovery forms to the login page. */
export function BackToSignIn() {
  return (
    <p className="text-center text-sm">
      <Link to="/" className="inline-flex items-center gap-1.5 font-semibold text-primary hover:underline">
        <ArrowLeftIcon className="size-4" />
        Back to Sign In
      </Link>
    </p>
  );
}
