import { clsx } from 'clsx';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';

/** Top of every route: scroll restoration and a thin bar while the next screen's code loads. */
export function RootLayout() {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  return (
    <>
      <div
        aria-hidden="true"
        className={clsx(
          'fixed inset-x-0 top-0 z-[70] h-0.5 origin-left bg-primary transition-[transform,opacity] duration-300',
          busy ? 'scale-x-75 opacity-100' : 'scale-x-0 opacity-0',
        )}
      />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
