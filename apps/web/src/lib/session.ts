import type { SessionUser } from '@gridbot/shared';

/** localStorage keys of the session (docs/spec/01-core-screens.md §6: the bearer token is held in local storage). */
export const TOKEN_KEY = 'token';
export const USER_KEY = 'user';

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The stored user data; user data without a token is left over from an ended session and is removed. */
export function getStoredUser(): SessionUser | null {
  try {
    if (!localStorage.getItem(TOKEN_KEY)) {
      localStorage.removeItem(USER_KEY);
      return null;
    }
    const raw = localStorage.getItem(USER_KEY);
    return raw ? (JSON.parse(raw) as SessionUser) : null;
  } catch {
    return null;
  }
}

/** Keeps the session after login or OTP verification (docs/spec/01-core-screens.md §4). */
export function saveSession(token: string, user: SessionUser): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

export function saveUser(user: SessionUser): void {
  localStorage.setItem(USER_KEY, JSON.stringify(user));
}

/** Removes the token and the user data (logout and any 401). */
export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(USER_KEY);
}
