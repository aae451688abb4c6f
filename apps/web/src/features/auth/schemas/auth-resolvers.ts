import { loginInputSchema } from '@gridbot/shared';
import { zodResolver } from '@hookform/resolvers/zod';

// The auth forms' validation, in a chunk of its own that the forms load on first focus (lib/lazy-resolver).
export const loginResolver = zodResolver(loginInputSchema);
