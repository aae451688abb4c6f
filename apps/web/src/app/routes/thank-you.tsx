import { Link } from 'react-router';
import { buttonClasses } from '../../components/ui/button';
import { CheckCircleIcon } from '../../components/ui/icons';

export default function ThankYouRoute() {
  return (
    <div className="rounded-2xl border border-line bg-surface p-8 text-center shadow-card">
      <title>Thank you · GridBot</title>
      <div className="mx-auto mb-5 flex size-14 items-center justify-center rounded-full bg-up/12 text-up">
        <CheckCircleIcon className="size-8" />
      </div>
      <h1 className="text-2xl font-bold tracking-tight text-fg">Thank You for Your Sign Up Request!</h1>
      <p className="mt-3 text-muted">Our team will contact you soon with amazing opportunities.</p>
      <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
        Back to Sign In
      </Link>
    </div>
  );
}
