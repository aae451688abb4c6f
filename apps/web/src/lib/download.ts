import { ApiError, NO_RESPONSE_MESSAGE } from './api-client';
import { getToken } from './session';

/**
 * Fetches a file from the main API with the bearer token (a plain link cannot send it) and hands it to the
 * browser as a download named `filename`.
 */
export async function downloadFromApi(path: string, filename: string): Promise<void> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch (error) {
    throw new ApiError(0, NO_RESPONSE_MESSAGE, null, error);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(response.status, body?.message ?? 'The export failed. Please try again.', body);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
