import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form resolver whose validation code (zod and the shared schemas, a fifth of a sign-in screen's script)
 * loads on first use instead of with the screen. `preload` starts the download early, on the form's first
 * focus, so validating the first submit does not wait on the network.
 */
export function lazyResolver<TInput extends FieldValues, TContext, TOutput>(
  load: () => Promise<Resolver<TInput, TContext, TOutput>>,
) {
  let loading: Promise<Resolver<TInput, TContext, TOutput>> | undefined;
  const preload = () => {
    loading ??= load().catch((error: unknown) => {
      // A failed download (network blip) is retried on the next attempt, not remembered.
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const resolver: Resolver<TInput, TContext, TOutput> = async (values, context, options) =>
    (await preload())(values, context, options);
  return { resolver, preload };
}
